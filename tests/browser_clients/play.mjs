// Plays a match against a real host through one of the Connect project's own
// Node transports and prints what it saw as JSON, for
// tests/test_browser_clients.py to check.
//
//   node play.mjs BASE_URL connect-json|connect-proto|connect-get-json|connect-get-proto|grpc-web-proto|grpc-web-json STUBS
//
// The connect-get transports send the calls marked NO_SIDE_EFFECTS
// (ListGames, GetGame, GetMatch, ...) in Connect's GET form.
import { createClient, ConnectError } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { pathToFileURL } from "node:url";

// STUBS: the directory protoc-gen-es wrote the stubs to (inside this package,
// so that they find its node_modules).
const [baseUrl, transportName, stubs] = process.argv.slice(2);
const stub = (path) => import(pathToFileURL(`${stubs}/${path}`).href);
const { GameHost } = await stub("gamehost/v1/gamehost_pb.js");
const { BadRequestSchema, ErrorInfoSchema, ResourceInfoSchema } = await stub("google/rpc/error_details_pb.js");
const options = { baseUrl, httpVersion: "1.1", useBinaryFormat: transportName.endsWith("-proto"),
                  useHttpGet: transportName.startsWith("connect-get") };
const transport = transportName.startsWith("grpc-web")
  ? createGrpcWebTransport(options)
  : createConnectTransport(options);
const client = createClient(GameHost, transport);
const X_WINS_TOP_ROW = ["a3", "a2", "b3", "b2", "c3"];

function errorOf(err) {
  const error = ConnectError.from(err);
  return {
    code: error.code,
    message: error.rawMessage,
    reasons: error.findDetails(ErrorInfoSchema).map((info) => `${info.domain}/${info.reason}`),
    fields: error.findDetails(BadRequestSchema).flatMap((bad) => bad.fieldViolations.map((v) => v.field)),
    resources: error.findDetails(ResourceInfoSchema).map((info) => info.resourceName),
  };
}

async function failure(call) {
  try {
    await call();
  } catch (err) {
    return errorOf(err);
  }
  return null;
}

// Resolves once `events` holds an event of `version`; fails after 5 s, which is
// what a transport that buffered the stream until its end would do.
async function until(events, version) {
  const deadline = Date.now() + 5000;
  while (!events.some((event) => event.version === version)) {
    if (Date.now() > deadline) throw new Error(`event ${version} did not arrive while the stream was open`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function play() {
  const games = (await client.listGames({})).games.map((game) => game.id);
  const match = await client.createMatch({ game: "games/tictactoe" });
  const tokens = [];
  for (const name of ["xavier", "olga"]) {
    tokens.push((await client.joinMatch({ name: match.name, playerName: name })).playerToken);
  }
  // Each move is sent only after the stream delivered the previous one.
  const events = [];
  const watching = (async () => {
    for await (const event of client.watchMatch({ name: match.name, playerToken: tokens[0] })) {
      events.push({ version: Number(event.version), kind: event.kind, label: event.label,
                    viewSeat: event.view ? event.view.seat : null });
    }
  })();
  await until(events, 3);
  let version = 3;
  for (const [turn, moveId] of X_WINS_TOP_ROW.entries()) {
    const answer = await client.submitMove({ name: match.name, playerToken: tokens[turn % 2],
                                               move: { case: "moveId", value: moveId } });
    version = Number(answer.version);
    await until(events, version);
  }
  await watching; // the stream ends by itself with the match
  const final = await client.getMatch({ name: match.name });
  return { games, events, status: final.status, winners: final.result.winners };
}

async function cancelWatch() {
  const match = await client.createMatch({ game: "games/tictactoe" });
  await client.joinMatch({ name: match.name }); // one event to see; the match stays open
  const abort = new AbortController();
  const seen = [];
  const ended = await failure(async () => {
    for await (const event of client.watchMatch({ name: match.name }, { signal: abort.signal })) {
      seen.push(Number(event.version));
      abort.abort();
    }
  });
  return { match: match.name, seen, ended };
}

const report = {
  played: await play(),
  notFound: await failure(() => client.getGame({ name: "games/chess" })),
  invalid: await failure(() => client.getMatch({ name: "chess" })),
  watchNotFound: await failure(async () => {
    for await (const _ of client.watchMatch({ name: "matches/nobody" })) { /* nothing arrives */ }
  }),
  cancelled: await cancelWatch(),
};
process.stdout.write(JSON.stringify(report, (_, value) => (typeof value === "bigint" ? Number(value) : value)));
