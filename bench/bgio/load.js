// Load generator for boardgame.io, with its own clients: for each of
// CONCURRENCY slots, GAMES matches one after the other; each match has both
// players as boardgame.io Clients with the SocketIO transport, following the
// match live and playing when the state says it is their turn (the same nine
// moves, no line, as bench/moves.py's DRAW). Matches are created and joined
// through the Lobby API before the clock starts; connecting the clients is
// outside it: see the Slot class.
// Usage: node load.js SERVER_URL CONCURRENCY GAMES -> one JSON line on stdout.
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { TicTacToe } = require('./game');

const [server, concurrency, gamesPerSlot] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
// gamehost's DRAW (a3 b3 c3 b2 a2 c2 b1 a1 c1) on cells 0..8, row by row from a1.
const DRAW = ['a3', 'b3', 'c3', 'b2', 'a2', 'c2', 'b1', 'a1', 'c1']
  .map((cell) => (Number(cell[1]) - 1) * 3 + (cell.charCodeAt(0) - 97));

async function prepare(lobby) {
  const { matchID } = await lobby.createMatch('tictactoe', { numPlayers: 2 });
  const credentials = [];
  for (const playerID of ['0', '1']) {
    const joined = await lobby.joinMatch('tictactoe', matchID, { playerID, playerName: `p${playerID}` });
    credentials.push(joined.playerCredentials);
  }
  return { matchID, credentials };
}

// One slot: a Client per seat, each with its own socket (the way a browser's
// client connects), kept for the slot's matches one after the other: a
// finished match is left for the next with updateMatchID, on the same socket.
class Slot {
  constructor(matches, latencies, failures) {
    Object.assign(this, { matches, latencies, failures, index: 0 });
    this.clients = ['0', '1'].map((playerID) => this.connect(playerID));
  }

  connect(playerID) {
    const match = this.matches[0];
    const client = Client({
      game: TicTacToe, multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'] } }), matchID: match.matchID, playerID,
      credentials: match.credentials[Number(playerID)], debug: false,
    });
    client.seat = { playerID, live: false, movedAt: -1, ended: false };
    client.subscribe((state) => this.seen(client, state));
    return client;
  }

  // Both clients connected and synced to the first match (before the clock).
  ready() {
    return new Promise((resolve) => {
      const check = () => {
        if (this.clients.every((client) => client.seat.live)) resolve(); else setTimeout(check, 5);
      };
      for (const client of this.clients) client.start();
      check();
    });
  }

  play() {
    return new Promise((resolve) => {
      this.finished = resolve;
      this.sent = new Map(); // filled cells after a move -> [send time, mover]
      if (this.index > 0) {
        const match = this.matches[this.index];
        for (const client of this.clients) {
          Object.assign(client.seat, { live: false, movedAt: -1, ended: false });
          // New credentials without a sync of their own (updateCredentials would
          // sync the old match once more): updateMatchID's sync carries them.
          client.credentials = match.credentials[Number(client.seat.playerID)];
          client.transport.credentials = client.credentials;
          client.updateMatchID(match.matchID);
        }
      }
      for (const client of this.clients) this.seen(client, client.getState());
    });
  }

  seen(client, state) {
    const { seat } = client;
    // The old match's last state shows until the new one's sync arrives.
    if (!state || seat.ended || (!seat.live && (state.ctx.gameover || !state.isConnected))) return;
    seat.live = true;
    if (!this.finished) return; // connected before the clock: nothing to play yet
    // A move shows twice (the local result, then the server's with the turn
    // passed): the number of filled cells says which move a state follows.
    const filled = state.G.cells.filter((cell) => cell !== null).length;
    const made = this.sent.get(filled);
    if (made && made[1] !== seat.playerID && made.length === 2) {
      made.push(true); // seen by the opponent, once
      this.latencies.push(Number(process.hrtime.bigint() - made[0]) / 1e6);
    }
    if (state.ctx.gameover) {
      seat.ended = true;
      if (!state.ctx.gameover.draw || filled !== DRAW.length) this.failures.count += 1;
      if (this.clients.every((each) => each.seat.ended)) {
        const done = this.finished;
        this.finished = null;
        this.index += 1;
        done();
      }
      return;
    }
    if (state.ctx.currentPlayer === seat.playerID && filled % 2 === Number(seat.playerID) && seat.movedAt !== filled) {
      seat.movedAt = filled;
      queueMicrotask(() => {
        this.sent.set(filled + 1, [process.hrtime.bigint(), seat.playerID]);
        client.moves.clickCell(DRAW[filled]);
      });
    }
  }

  async run() {
    while (this.index < this.matches.length) await this.play();
    for (const client of this.clients) client.stop();
  }
}

async function main() {
  const lobby = new LobbyClient({ server });
  const slots = [];
  for (let slot = 0; slot < concurrency; slot += 1) {
    const matches = [];
    for (let game = 0; game < gamesPerSlot; game += 1) matches.push(await prepare(lobby));
    slots.push(matches);
  }
  const latencies = [];
  const failures = { count: 0 };
  const players = slots.map((matches) => new Slot(matches, latencies, failures));
  await Promise.all(players.map((slot) => slot.ready()));
  process.stderr.write('ready\n');
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await Promise.all(players.map((slot) => slot.run()));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  const loadCpu = (used.user + used.system) / 1e6;
  latencies.sort((a, b) => a - b);
  const moves = concurrency * gamesPerSlot * DRAW.length;
  process.stdout.write(`${JSON.stringify({
    moves, elapsed, rate: moves / elapsed, failures: failures.count, latencies: latencies.length,
    p50_ms: latencies[Math.floor(0.5 * (latencies.length - 1))],
    p99_ms: latencies[Math.floor(0.99 * (latencies.length - 1))],
    load_cpu_s: loadCpu,
  })}\n`);
  process.exit(0);
}

main().catch((error) => { console.error(error); process.exit(1); });
