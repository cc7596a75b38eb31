#!/usr/bin/env node
// The whole turn on the game page: tests/test_turn_summaries.py runs
// `node clients/web/e2e/turns.mjs --target <web url> --game campanile --language en`
// and checks what this prints (one JSON line) against the match log.
//
// A player creates a match against a bot and plays (the first legal move each
// time) until the bot's turn just played had several steps (it may have opened the match); the page then
// names that turn above the board. A spectator's page of the same match reads
// the same line at the same version.
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { createMatch, openMatch, pageState, playMove, waitForTurnOrEnd } from "./pages.mjs";

const { values: args } = parseArgs({ options: {
  target: { type: "string" }, game: { type: "string" }, language: { type: "string" },
} });
const { target, game } = args;
const language = args.language || "en";
if (!target || !game) {
  console.error("usage: turns.mjs --target <web url> --game <id> [--language <tag>]");
  process.exit(2);
}

const lastMove = (page) => page.evaluate(() => {
  const element = document.querySelector("#last-move");
  return { text: element?.innerText ?? "", version: Number(element?.dataset.version || 0),
    steps: Number(element?.dataset.steps || 0), seat: Number(element?.dataset.seat || -1), pageVersion: Number(document.querySelector(".match-page")?.dataset.version ?? -1) };
});

const browser = await launchBrowser();
try {
  const context = await browser.newContext({ locale: language, viewport: { width: 1280, height: 800 } });
  await context.addInitScript((tag) => window.localStorage.setItem("gamehost.language", tag), language);
  const page = await context.newPage();
  const id = await createMatch(page, target, { game, seats: 2, bots: [1] });
  let player = null;
  for (let moves = 0; moves < 200 && player === null; moves += 1) {
    await waitForTurnOrEnd(page);
    const state = await pageState(page);
    if (state.status !== "active") break;
    const shown = await lastMove(page);
    if (shown.steps > 1 && shown.seat !== state.seat) {
      player = shown;
      break;
    }
    await playMove(page, state.legal[0].id);
  }
  const spectatorContext = await browser.newContext({ locale: language, viewport: { width: 1280, height: 800 } });
  await spectatorContext.addInitScript((tag) => window.localStorage.setItem("gamehost.language", tag), language);
  const watcher = await spectatorContext.newPage();
  await openMatch(watcher, target, id);
  const spectator = await lastMove(watcher);
  console.log(JSON.stringify({ match: id, player, spectator, seat: (await pageState(page)).seat }));
} finally {
  await browser.close();
}
