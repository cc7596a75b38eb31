// The package's seed commitment checks (src/seed-commitment.ts), run by
// tests/test_seed_commitment.py with `node --test`:
//   GAMEHOST_TS_BUILD   the folder tsc compiled src/ into
//   GAMEHOST_WEB_URL    a host's web port, for the checks of real matches
//   GAMEHOST_COMMITMENT_CASES  JSON: [{name, match, seen (hex or ""), expect}]
// The logs are read over the Connect protocol's JSON form.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { clone, fromJson } from "@bufbuild/protobuf";

const build = process.env.GAMEHOST_TS_BUILD ?? new URL("../dist", import.meta.url).pathname;
const { MatchEventSchema, MatchLogSchema, checkCommitment, eventsProblem, hexOf, seedCommitment } =
  await import(pathToFileURL(`${build}/index.js`).href);

const COUNTING_SALT = Uint8Array.from({ length: 32 }, (_, index) => index);
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));

test("the commitment has the documented layout, as the Python and Go clients compute it", async () => {
  assert.equal(hexOf(await seedCommitment(42n, COUNTING_SALT)),
    "0cd60dd0388cd5affcb66a3aede2744959f15ee62a67fb0097e4179b7c18dc8c");
  assert.equal(hexOf(await seedCommitment((1n << 64n) - 1n, COUNTING_SALT)),
    "f2cc21bdad5ad4644b49c91c0de09df91b3e7babe463a5cac5c88f57025b4816");
  await assert.rejects(seedCommitment(1n << 64n, COUNTING_SALT), RangeError);
});

test("a tampered seed or salt is rejected", async () => {
  const honest = fromJson(MatchLogSchema, {
    match: "matches/m1", complete: true, seed: "42", seedSalt: Buffer.from(COUNTING_SALT).toString("base64"),
    seedCommitment: Buffer.from(await seedCommitment(42n, COUNTING_SALT)).toString("base64"),
  });
  assert.equal((await checkCommitment(honest)).outcome, "verified");
  const seed = clone(MatchLogSchema, honest);
  seed.seed = 43n;
  const salt = clone(MatchLogSchema, honest);
  salt.seedSalt = Uint8Array.from(COUNTING_SALT, (byte, index) => (index === 0 ? byte ^ 1 : byte));
  for (const tampered of [seed, salt]) {
    const found = await checkCommitment(tampered);
    assert.equal(found.outcome, "rejected");
    assert.match(found.message, /do not hash to the commitment/);
  }
  const kept = await checkCommitment(honest, new Uint8Array(32));
  assert.equal(kept.outcome, "rejected");
  assert.match(kept.message, /is not the one the match showed at its creation/);
});

test("every event once, in order, and as it was played", () => {
  const event = (version, move) => ({ version: String(version), kind: "EVENT_KIND_MOVED", seat: 0,
                                      ...(move ? { move: { cell: move } } : {}) });
  const log = fromJson(MatchLogSchema, { complete: true, events: [event(1), event(2, "b2")] });
  const played = fromJson(MatchEventSchema, event(2, "b2"));
  assert.equal(eventsProblem(log, [played]), undefined);
  assert.match(eventsProblem(log, [fromJson(MatchEventSchema, event(2, "c3"))]), /is not the one played/);
  assert.match(eventsProblem(log, [fromJson(MatchEventSchema, event(3, "a1"))]), /no event 3/);
  log.events.shift();
  assert.match(eventsProblem(log), /missing or out of order/);
});

const cases = JSON.parse(process.env.GAMEHOST_COMMITMENT_CASES ?? "[]");
const baseUrl = process.env.GAMEHOST_WEB_URL;

async function matchLog(name) {
  const answer = await fetch(`${baseUrl}/gamehost.v1.GameHost/GetMatchLog`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }),
  });
  assert.equal(answer.status, 200, await answer.clone().text());
  return fromJson(MatchLogSchema, await answer.json());
}

for (const { name, match, seen, expect } of cases) {
  test(`a match read from the host: ${name}`, { skip: !baseUrl }, async () => {
    const log = await matchLog(match);
    const found = await checkCommitment(log, seen ? fromHex(seen) : undefined);
    assert.equal(found.outcome, expect, found.message);
    if (expect === "rejected") return;
    assert.equal(eventsProblem(log), undefined);
    assert.ok(log.events.length > 0);
  });
}
