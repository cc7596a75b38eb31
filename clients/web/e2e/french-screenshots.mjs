#!/usr/bin/env node
// The French screenshots of the documentation, taken again with
// `node clients/web/e2e/french-screenshots.mjs --target http://127.0.0.1:8080`
// against a host serving the built page (`make serve`): for each game, a
// browser whose language is French opens a match against bots, plays a few
// moves by clicks so the board and the move log have something to show, and
// saves the window (1280x800) as docs/screenshots/<game>-fr.png.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { deflateSync, inflateSync } from "node:zlib";
import { launchBrowser } from "./browser.mjs";
import { createMatch, pageState, playToEnd, seededRandom } from "./pages.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const { values: args } = parseArgs({ options: {
  target: { type: "string" }, out: { type: "string", default: resolve(ROOT, "docs/screenshots") },
  games: { type: "string", default: "campanile,callisto" }, seats: { type: "string", default: "3" },
  moves: { type: "string", default: "6" }, seed: { type: "string", default: "3" },
} });
if (!args.target) {
  console.error("usage: french-screenshots.mjs --target <web url> [--games campanile,callisto] [--moves N] [--out DIR]");
  process.exit(2);
}

/** Recompresses a PNG losslessly: its image data deflated again at zlib's highest level (Chromium writes it fast). */
function optimise(file) {
  const png = readFileSync(file);
  const chunks = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString("latin1", at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data)));
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, "latin1");
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, tail]);
  };
  const kept = chunks.filter((c) => c.type === "IHDR" || c.type === "PLTE" || c.type === "tRNS");
  writeFileSync(file, Buffer.concat([png.subarray(0, 8), ...kept.map((c) => chunk(c.type, c.data)),
    chunk("IDAT", deflateSync(pixels, { level: 9, memLevel: 9 })), chunk("IEND", Buffer.alloc(0))]));
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

const browser = await launchBrowser();
const taken = [];
try {
  for (const game of args.games.split(",")) {
    // A French browser: the page speaks French before anyone chooses, as a French visitor sees it.
    const context = await browser.newContext({ locale: "fr-FR", viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const seats = Number(args.seats);
    const bots = Array.from({ length: seats - 1 }, (_, seat) => seat + 1);
    await createMatch(page, args.target, { game, seats, bots, seed: undefined });
    await playToEnd(page, seededRandom(Number(args.seed)), { maxMoves: Number(args.moves) });
    // Mid-match and the player's turn: the board, the moves offered and the log all show.
    await page.waitForFunction(() => document.querySelectorAll("#moves .legal-move:not([disabled])").length > 0
      && document.querySelector("#move-log")?.innerText.trim(), null, { timeout: 60000 });
    const file = resolve(args.out, `${game}-fr.png`);
    await page.screenshot({ path: file });
    optimise(file);
    taken.push({ game, file, lang: await page.evaluate(() => document.documentElement.lang),
      version: (await pageState(page)).version });
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ taken }));
