#!/usr/bin/env node
// The site's basics in the browser, one scenario per invocation:
// tests/test_web_site_basics.py runs `node clients/web/e2e/site.mjs <scenario>
// --target <web url> ...` and checks the JSON printed on the last line
// against the host. Scenarios: playAgain (two signed-in players finish a
// match and both land in its rematch), botClick (one click on a bot level),
// ratings (the leaderboard and a player's page, signed out), lobbyLists (my
// matches and open matches), seatChoices (the create form's player counts),
// themeButton (the header's theme button, its colours measured) and
// botRatings (the bot levels' ratings in the lobby, English and French).
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { pageState, playMove, waitForTurnOrEnd } from "./pages.mjs";

const { values: args, positionals: [scenarioName] } = parseArgs({ allowPositionals: true, options: Object.fromEntries(
  ["target", "game", "bot", "token", "other-token", "moves", "match", "player", "language"]
    .map((name) => [name, { type: "string" }])) });
const target = args.target;
const WAIT_MS = 30000;

const scenarios = {
  /** Ann and Bob (signed in) play the match the test created and joined for them to its end by the given
   * moves, then Ann asks for a rematch and Bob accepts it from his finished match's page. */
  async playAgain(browser) {
    const ann = await signedInPage(browser, args.token, `#/matches/${args.match}`);
    const bob = await signedInPage(browser, args["other-token"], `#/matches/${args.match}`);
    const pages = [ann, bob];
    for (const move of args.moves.split(",")) {
      const mover = await moverOf(pages);
      await playMove(mover, move);
    }
    for (const page of pages) {
      await page.waitForSelector('.match-page[data-status="finished"]', { timeout: WAIT_MS });
      await page.waitForSelector('#rematch[data-state="ask"]', { timeout: WAIT_MS });
    }
    const asked = await texts(ann, "#rematch");
    await ann.locator("#play-again").click();
    const annMatch = await landOnAnotherMatch(ann, args.match);
    await bob.waitForSelector('#rematch[data-state="offered"]', { timeout: WAIT_MS });
    const offered = await texts(bob, "#rematch");
    const offeredMatch = await bob.locator("#rematch").getAttribute("data-rematch");
    await bob.locator("#accept-rematch").click();
    const bobMatch = await landOnAnotherMatch(bob, args.match);
    for (const page of pages) {
      await page.waitForSelector('.match-page[data-status="active"]', { timeout: WAIT_MS });
    }
    return { annMatch, bobMatch, offeredMatch, asked, offered, annSeat: (await pageState(ann)).seat,
      bobSeat: (await pageState(bob)).seat, lang: await ann.evaluate(() => document.documentElement.lang) };
  },

  /** Opens the game's card and clicks "Play against <bot>": the page creates the match and opens it. */
  async botClick(browser) {
    const page = await newPage(browser);
    await page.goto(`${target}/#/`);
    const card = page.locator(`details.game[data-game="${args.game}"]`);
    await card.locator("summary").click();
    const buttons = await card.locator(".play-bot").evaluateAll((all) => all.map((button) => ({
      bot: button.dataset.bot, text: button.innerText, title: button.title })));
    const before = page.url();
    await card.locator(`.play-bot[data-bot="${args.bot}"]`).click();
    await page.waitForFunction((url) => window.location.href !== url && /#\/matches\/[^/]+$/.test(window.location.hash),
      before, { timeout: WAIT_MS });
    await page.waitForSelector(".match-page[data-version]", { timeout: WAIT_MS });
    await waitForTurnOrEnd(page);
    return { match: new URL(page.url()).hash.split("/").pop(), buttons, state: await pageState(page),
      card: await texts(page, ".match-page") };
  },

  /** The lobby's bot levels with their ratings, in English and in French: each one-click button's text and its
   * rating's tooltip, and the create form's bot choices. */
  async botRatings(browser) {
    const shown = {};
    for (const language of ["en", "fr"]) {
      const page = await newPage(browser, language);
      await page.goto(`${target}/#/`);
      const card = page.locator(`details.game[data-game="${args.game}"]`);
      await card.locator("summary").click();
      await card.locator(".play-bot .bot-rating").first().waitFor({ timeout: WAIT_MS });
      shown[language] = {
        lang: await page.evaluate(() => document.documentElement.lang),
        buttons: await card.locator(".play-bot").evaluateAll((all) => all.map((button) => ({
          bot: button.dataset.bot, text: button.innerText,
          tooltip: button.querySelector(".bot-rating")?.title ?? "" }))),
        choices: await card.locator('select[name="bot"] option').evaluateAll((all) => all.map((option) => option.innerText)),
      };
      await page.context().close();
    }
    return shown;
  },

  /** Signed out: the game's leaderboard from its card's link, then the first player's page from their name. */
  async ratings(browser) {
    const page = await newPage(browser);
    await page.goto(`${target}/#/`);
    const card = page.locator(`details.game[data-game="${args.game}"]`);
    await card.locator("summary").click();
    await card.locator(".leaderboard-link").click();
    await page.waitForSelector('#leaderboard[data-state="loaded"]', { timeout: WAIT_MS });
    const board = await page.locator("#leaderboard tbody tr").evaluateAll((rows) => rows.map((row) => ({
      player: row.dataset.player, cells: Array.from(row.cells, (cell) => cell.innerText) })));
    const leaderboardText = await texts(page, "main");
    await page.locator(`#leaderboard tr[data-player="${args.player}"] .player-link`).click();
    await page.waitForSelector('#player-profile[data-state="loaded"]', { timeout: WAIT_MS });
    const profile = await page.locator("#player-profile tbody tr").evaluateAll((rows) => rows.map((row) => ({
      game: row.dataset.game, cells: Array.from(row.cells, (cell) => cell.innerText) })));
    return { board, leaderboardText, profile, profileText: await texts(page, "main"), hash: new URL(page.url()).hash };
  },

  /** A browser that holds a seat in --match: its lobby's "My matches" and "Open matches to join". */
  async lobbyLists(browser) {
    const page = await newPage(browser);
    await page.goto(`${target}/#/`);
    const join = page.locator(`#open-matches tr[data-open-match="${args.match}"] .join-open-seat`).first();
    await join.waitFor({ timeout: WAIT_MS });
    const openBefore = await matchIds(page, "#open-matches", "open-match");
    await join.click();
    await page.waitForSelector(".match-page[data-version]", { timeout: WAIT_MS });
    await page.goto(`${target}/#/`);
    await page.locator(`#my-matches tr[data-match="${args.match}"]`).waitFor({ timeout: WAIT_MS });
    return { openBefore, mine: await matchIds(page, "#my-matches"),
      openAfter: await matchIds(page, "#open-matches", "open-match"),
      lobby: await texts(page, "main") };
  },

  /** The player counts the create form of --game offers. */
  async seatChoices(browser) {
    const page = await newPage(browser);
    await page.goto(`${target}/#/`);
    const card = page.locator(`details.game[data-game="${args.game}"]`);
    await card.locator("summary").click();
    return { counts: await card.locator('form.create-form select[name="seats"] option')
      .evaluateAll((all) => all.map((option) => Number(option.value))),
    summary: await card.locator("summary").innerText() };
  },

  /** The header's theme button in each theme: its text and background colours and their contrast ratio. */
  async themeButton(browser) {
    const page = await newPage(browser);
    await page.goto(`${target}/#/`);
    await page.waitForSelector("#theme-toggle");
    const shown = {};
    for (let step = 0; step < 3; step += 1) {
      const measured = await page.evaluate(() => {
        const button = document.querySelector("#theme-toggle");
        const style = getComputedStyle(button);
        return { theme: document.documentElement.dataset.theme ?? "auto", color: style.color,
          background: style.backgroundColor };
      });
      shown[measured.theme] = { ...measured, contrast: contrast(measured.color, measured.background) };
      await page.locator("#theme-toggle").click();
    }
    return shown;
  },
};

/** WCAG's contrast ratio of two opaque rgb() colours. */
function contrast(first, second) {
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((value) => {
      const channel = value / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

function matchIds(page, where, marker = "match") {
  return page.locator(`${where} tr[data-${marker}]`).evaluateAll((rows, key) => rows.map((row) => row.getAttribute(key)),
    `data-${marker}`);
}

/** What a person reads in `selector`, and the attributes people read there. */
function texts(page, selector) {
  return page.locator(selector).first().evaluate((element) => [element.innerText,
    ...Array.from(element.querySelectorAll("[title], [aria-label], [placeholder]"),
      (node) => ["title", "aria-label", "placeholder"].map((name) => node.getAttribute(name) ?? "").join(" "))]
    .join("\n"));
}

/** The page whose player is to move, once its move list is enabled. */
async function moverOf(pages) {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    for (const page of pages) {
      const state = await pageState(page);
      if (state.toMove.includes(state.seat)) {
        await waitForTurnOrEnd(page);
        return page;
      }
    }
    await pages[0].waitForTimeout(100); // between two looks at both pages
  }
  throw new Error("no page may move");
}

async function landOnAnotherMatch(page, previous) {
  await page.waitForFunction((old) => /^#\/matches\/[^/?]+$/.test(window.location.hash)
    && !window.location.hash.endsWith(`/${old}`), previous, { timeout: WAIT_MS });
  await page.waitForSelector(".match-page[data-version]", { timeout: WAIT_MS });
  return new URL(page.url()).hash.split("/").pop();
}

async function signedInPage(browser, token, hash) {
  const page = await newPage(browser);
  await page.goto(`${target}/${hash}?token=${token}`);
  await page.waitForSelector('#sign-in-bar[data-state="signed-in"]', { timeout: WAIT_MS });
  await page.waitForSelector(".match-page[data-version]", { timeout: WAIT_MS });
  return page;
}

async function newPage(browser, language = args.language) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 },
    locale: language === "fr" ? "fr-FR" : "en-US" });
  if (language) {
    await context.addInitScript((tag) => window.localStorage.setItem("gamehost.language", tag), language);
  }
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return page;
}

const scenario = scenarios[scenarioName];
if (!scenario || !target) {
  console.error(`usage: site.mjs <${Object.keys(scenarios).join("|")}> --target <web url> [--option value ...]`);
  process.exit(2);
}
const browser = await launchBrowser();
try {
  console.log(JSON.stringify(await scenario(browser)));
} finally {
  await browser.close();
}
