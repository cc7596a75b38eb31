// Two players of one tic-tac-toe match, each kept up to date by the package's
// MatchFollower and moving when its view says so. X reaches the host through a
// TCP relay that this script cuts after X's second move: X's stream drops, O
// moves while X cannot reach the host, then the relay lets X through again and
// X's follower must resume with O's move, once. Prints what each player saw as
// JSON, for tests/test_ts_client_package.py to check.
//
//   node play.mjs BASE_URL
import net from "node:net";
import { randomUUID } from "node:crypto";
import { createConnectTransport } from "@connectrpc/connect-node";
import { EventKind, MatchFollower, createGamehostClient, errorReason } from "@gamehost/client";

const [baseUrl] = process.argv.slice(2);
const overHttp1 = (settings) => createConnectTransport({ ...settings, httpVersion: "1.1" });
const X_WINS_TOP_ROW = { x: ["a3", "b3", "c3"], o: ["a2", "b2"] };

/** Forwards TCP connections to the host until cut(); while cut, it resets every connection it accepts. */
class Relay {
  sockets = new Set();
  open = true;

  static async start(target) {
    const relay = new Relay();
    relay.server = net.createServer((client) => {
      if (!relay.open) return client.resetAndDestroy();
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const [a, b] of [[client, upstream], [upstream, client]]) {
        relay.sockets.add(a);
        a.pipe(b);
        a.on("error", () => b.destroy());
        a.on("close", () => { relay.sockets.delete(a); b.destroy(); });
      }
    });
    await new Promise((resolve) => relay.server.listen(0, "127.0.0.1", resolve));
    relay.url = `http://127.0.0.1:${relay.server.address().port}`;
    return relay;
  }

  cut() {
    this.open = false;
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  restore() {
    this.open = true;
  }

  close() {
    this.cut();
    this.server.close();
  }
}

function deferred() {
  let resolve;
  const promise = new Promise((done) => { resolve = done; });
  return { promise, resolve };
}

/** One seat: follows the match from `view` and plays `moves` in order, each when the view says it is its turn. */
function player(client, token, view, moves, { beforeMove = async () => {}, afterMove = async () => {} } = {}) {
  const seen = { events: [], connections: [], lives: 0, refused: [] };
  let movedAt = -1n; // the version of the view a move was last chosen in: a view seen twice moves once
  const choose = async (next) => {
    if (next.version <= movedAt || !next.toMove.includes(next.seat) || moves.length === 0) return;
    movedAt = next.version;
    const moveId = moves.shift();
    if (!next.legalMoves.some((move) => move.id === moveId)) throw new Error(`${moveId} is not legal now`);
    await beforeMove(moves.length);
    try {
      await client.submitMove({ name: next.match, playerToken: token, move: { case: "moveId", value: moveId },
                                expectedVersion: next.version, requestId: randomUUID() });
    } catch (error) {
      seen.refused.push(errorReason(error));
      throw error;
    }
    await afterMove(moves.length);
  };
  let failure;
  const act = (next) => { choose(next).catch((error) => { failure ??= error; follower.stop(); }); };
  const follower = new MatchFollower(client, view.match, token, {
    view: act,
    event: (event) => seen.events.push({ version: Number(event.version), kind: EventKind[event.kind],
                                         label: event.label, afterResumes: seen.lives - 1 }),
    connection: (connection) => {
      if (connection.state === "live") seen.lives += 1;
      seen.connections.push(connection.state === "reconnecting"
        ? `reconnecting: ${connection.error ? connection.error.code : "ended"}` : connection.state);
    },
  }, { firstRetryMs: 100, maxRetryMs: 400 });
  act(view);
  const following = follower.start(view).then(() => { if (failure) throw failure; return seen; });
  return { following, follower, seen };
}

const host = new URL(baseUrl);
const relay = await Relay.start(host);
const direct = createGamehostClient(baseUrl, { transport: overHttp1 });
const relayed = createGamehostClient(relay.url, { transport: overHttp1 });
const timer = setTimeout(() => { console.error("the match did not end within 30 s"); process.exit(2); }, 30_000);
try {
  const match = await direct.createMatch({ game: "games/tictactoe" });
  const x = await relayed.joinMatch({ name: match.name, playerName: "xavier" });
  const o = await direct.joinMatch({ name: match.name, playerName: "olga" });
  const [xView, oView] = await Promise.all([
    relayed.getView({ name: match.name, playerToken: x.playerToken }),
    direct.getView({ name: match.name, playerToken: o.playerToken }),
  ]);

  // X's second move made, its relay is cut; O's second move waits for that, and the relay is restored once
  // O's move is in and X's follower has failed to reconnect once.
  const xCut = deferred();
  const oMovedWhileXCut = deferred();
  const xPlayer = player(relayed, x.playerToken, xView, X_WINS_TOP_ROW.x, {
    afterMove: async (left) => { if (left === 1) { relay.cut(); xCut.resolve(); } },
  });
  const oPlayer = player(direct, o.playerToken, oView, X_WINS_TOP_ROW.o, {
    beforeMove: async (left) => { if (left === 0) await xCut.promise; },
    afterMove: async (left) => { if (left === 0) oMovedWhileXCut.resolve(); },
  });
  await oMovedWhileXCut.promise;
  // Two failures: the dropped stream, then a try refused while the relay is still cut.
  while (xPlayer.seen.connections.filter((state) => state.startsWith("reconnecting")).length < 2) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  relay.restore();

  const [xSeen, oSeen] = await Promise.all([xPlayer.following, oPlayer.following]);
  const final = await direct.getMatch({ name: match.name });
  console.log(JSON.stringify({ startedAt: Number(xView.version), x: xSeen, o: oSeen,
                               status: final.status, winners: final.result?.winners ?? [] }));
} finally {
  clearTimeout(timer);
  relay.close();
}
