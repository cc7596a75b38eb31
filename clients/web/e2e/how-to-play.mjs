#!/usr/bin/env node
// "How to play" as a newcomer opens it: tests/test_how_to_play.py runs
// `node clients/web/e2e/how-to-play.mjs --target <web url> --games a,b --language fr`
// and checks what this prints (one JSON line).
//
// A browser whose language is the given one opens each game's card in the
// lobby, then its "How to play" dialog, and reads the dialog (its heading,
// its text, the elements the Markdown became, and whether anything came out
// as HTML the renderer does not make); then it creates a match of the first
// game against a bot and opens the dialog on the match page, mid-match.
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { createMatch, openLobby } from "./pages.mjs";

const { values: args } = parseArgs({ options: {
  target: { type: "string" }, games: { type: "string" }, language: { type: "string" },
} });
const { target, language } = args;
if (!target || !args.games || !language) {
  console.error("usage: how-to-play.mjs --target <web url> --games <id,id> --language <tag>");
  process.exit(2);
}
const games = args.games.split(",");
const RENDERED = new Set(["P", "STRONG", "EM", "CODE", "PRE", "OL", "UL", "LI", "H4"]);

/** Opens the dialog with `button`, reads it, closes it with its own button. */
async function readDialog(page, button) {
  await button.click();
  const dialog = page.locator("dialog.how-to-play[open]");
  await dialog.waitFor();
  const read = await dialog.evaluate((element, rendered) => {
    const body = element.querySelector(".how-to-play-text");
    return {
      heading: element.querySelector("h3")?.textContent ?? "",
      text: body?.innerText ?? "",
      tags: [...new Set(Array.from(body?.querySelectorAll("*") ?? [], (child) => child.tagName))],
      unexpected: Array.from(body?.querySelectorAll("*") ?? [], (child) => child.tagName)
        .filter((tag) => !rendered.includes(tag)),
      close: element.querySelector("button.how-to-play-close")?.textContent ?? "",
      button: document.activeElement?.tagName ?? "",
    };
  }, [...RENDERED]);
  await dialog.locator("button.how-to-play-close").click();
  await page.locator("dialog.how-to-play[open]").waitFor({ state: "detached" }).catch(() => undefined);
  read.closed = await page.evaluate(() => document.querySelectorAll("dialog.how-to-play[open]").length === 0);
  return read;
}

const browser = await launchBrowser();
try {
  const context = await browser.newContext({ locale: language, viewport: { width: 1280, height: 800 } });
  await context.addInitScript((tag) => window.localStorage.setItem("gamehost.language", tag), language);
  const page = await context.newPage();
  await openLobby(page, target);
  const lobby = {};
  for (const game of games) {
    const card = page.locator(`details.game[data-game=${JSON.stringify(game)}]`);
    if (!(await card.evaluate((details) => details.open))) await card.locator("summary").click();
    const button = card.locator("button.how-to-play-button");
    lobby[game] = { label: await button.innerText(), ...(await readDialog(page, button)) };
  }
  await createMatch(page, target, { game: games[0], seats: 2, bots: [1] });
  const button = page.locator(".match-header button.how-to-play-button");
  await button.waitFor();
  const match = { label: await button.innerText(), ...(await readDialog(page, button)),
    status: await page.locator("#match-status").innerText() };
  console.log(JSON.stringify({ lang: await page.evaluate(() => document.documentElement.lang), lobby, match }));
} finally {
  await browser.close();
}
