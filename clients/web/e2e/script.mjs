#!/usr/bin/env node
// Plays a given list of moves through the web client, every seat held by
// the browser (one browser profile per seat), and prints the match log that
// its log page shows (GetMatchLog) as canonical JSON on one line: the proto3
// JSON mapping with keys sorted and no whitespace (docs/clients.md,
// "Canonical JSON"), as `gamehost-go script` prints it.
//
//   node clients/web/e2e/script.mjs --target http://127.0.0.1:8080 --game tictactoe \
//     --seed 7 --moves b2,a1,c3,a3,a2,c2,b3,b1,c1 [--seats 2] [--variant id] [--options '{"k": v}']
//
// A move is a legal move id; "seat:id" names the seat when several seats
// could play the same id at once. Moves are clicked on the board where the
// SVG has a target, else picked from the move list. Exit status 1 when a
// move is not legal for any seat, with the legal moves on stderr.
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { createMatch, openLobby, pageState, playMove } from "./pages.mjs";

const USAGE = "usage: script.mjs --target <web url> --game <id> [--seed N] [--seats N] [--variant id] " +
  "[--options JSON] --moves id,id,...";
let args;
try {
  args = parseArgs({
    options: {
      target: { type: "string" }, game: { type: "string" }, seed: { type: "string" }, seats: { type: "string" },
      variant: { type: "string" }, options: { type: "string", default: "{}" }, moves: { type: "string", default: "" },
    },
  }).values;
  JSON.parse(args.options);
} catch (error) {
  console.error(`script.mjs: ${error.message}\n${USAGE}`);
  process.exit(2);
}
if (!args.target || !args.game) {
  console.error(USAGE);
  process.exit(2);
}

const MOVE_WAIT_MS = 15000;
const SETTLED_MS = 1000;
const browser = await launchBrowser();
try {
  const pages = [await newPage()];
  const id = await createMatch(pages[0], args.target, {
    game: args.game, seats: args.seats ? Number(args.seats) : undefined, bots: [], seed: args.seed,
    variant: args.variant, options: JSON.parse(args.options),
  });
  const seats = await pages[0].locator("#seats li").count();
  for (let seat = 1; seat < seats; seat += 1) {
    // The other seats join from the lobby's list of matches, as other people would.
    const page = await newPage();
    await openLobby(page, args.target);
    await page.locator(`tr[data-match="${id}"] .join-seat[data-seat="${seat}"]`).click();
    await page.waitForSelector(`.match-page[data-seat="${seat}"]`);
    pages.push(page);
  }
  let version = 0;
  for (const entry of args.moves.split(",").map((move) => move.trim()).filter(Boolean)) {
    const [seatText, moveId] = entry.includes(":") && /^\d+:/.test(entry) ? entry.split(/:(.*)/s) : [null, entry];
    const page = await pageToPlay(pages, seatText === null ? null : Number(seatText), moveId, version);
    await playMove(page, moveId);
    version = (await pageState(page)).version;
  }
  // Read as a spectator (a profile holding no seat), as the Python and Go scripts read it: a seat's log also
  // names what only that seat was shown (its own draws).
  const logPage = await newPage();
  await logPage.goto(`${args.target}/#/matches/${id}/log`);
  await logPage.waitForSelector("#match-log[data-complete]", { state: "attached" }); // in the replay page's raw toggle
  console.log(canonicalJson(JSON.parse(await logPage.locator("#match-log").textContent())));
} catch (error) {
  console.error(`script.mjs: ${error.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}

/** Keys sorted, no whitespace; numbers and strings as JSON.stringify writes them (RFC 8785 for these values). */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

/**
 * The page of the seat that may play `moveId`, once every page has caught up
 * with `version`. Every seat is the browser's, so once all pages agree on one
 * version for a moment nothing else will change: the move is not legal.
 */
async function pageToPlay(pages, seat, moveId, version) {
  const deadline = Date.now() + MOVE_WAIT_MS;
  let settled = { version: -1, since: Date.now() };
  for (;;) {
    const states = await Promise.all(pages.map(pageState));
    const versions = new Set(states.map((state) => state.version));
    const holders = states[0].version >= version && versions.size === 1
      ? pages.filter((_, index) => (seat === null || seat === index)
        && states[index].legal.some((move) => move.id === moveId))
      : [];
    if (holders.length === 1) return holders[0];
    if (holders.length > 1) throw new Error(`move ${moveId} is legal for several seats: write it as seat:${moveId}`);
    if (versions.size !== 1 || states[0].version !== settled.version) {
      settled = { version: versions.size === 1 ? states[0].version : -1, since: Date.now() };
    }
    if (Date.now() > deadline || (settled.version >= version && Date.now() - settled.since > SETTLED_MS)) {
      const legal = states.map((state, index) => `seat ${index}: ${state.legal.map((move) => move.id).join(" ") || "-"}`);
      throw new Error(`move ${moveId} is not legal for ${seat === null ? "any seat" : `seat ${seat}`} ` +
        `at version ${states[0].version} (status ${states[0].status}). Legal now: ${legal.join("; ")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
