#!/usr/bin/env node
// A whole match in another language: tests/test_web_languages.py runs
// `node clients/web/e2e/languages.mjs --target <web url> --game <id> --language fr`
// and looks for English in every text this prints (one JSON line).
//
// A player's browser (its own language English) switches the header to the
// target language, creates a match against a bot in the lobby and plays it
// to the end by clicks, with a reload halfway (the choice must survive it);
// a spectator's browser, whose language is the target one and that never
// chose, follows the same match; then the player steps the whole replay. At
// every step each page's visible text, attributes people read (title,
// aria-label, placeholder, alt), the tab's title, the board's SVG text and
// the move log are taken.
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { createMatch, openMatch, pageState, playToEnd, seededRandom, waitForTurnOrEnd } from "./pages.mjs";

const { values: args } = parseArgs({ options: {
  target: { type: "string" }, game: { type: "string" }, language: { type: "string" }, seed: { type: "string" },
  "translated-games": { type: "string" },
} });
const { target, game, language } = args;
if (!target || !game || !language) {
  console.error("usage: languages.mjs --target <web url> --game <id> --language <tag> [--seed N]");
  process.exit(2);
}

/** Everything a person reads on the page now, by where it is, the match id and the host's address left out. */
const REPLAY_STEPPED = 12;  // the replay's first steps, each read
const REPLAY_STRIDE = 10;  // then one step in this many, and the last

/** The replay's versions the scenario reads (tests/test_web_languages.py expects the same). */
function replayVersions(lastVersion) {
  const versions = [];
  for (let version = 0; version <= lastVersion; version += 1) {
    if (version <= REPLAY_STEPPED || version % REPLAY_STRIDE === 0 || version === lastVersion) versions.push(version);
  }
  return versions;
}

function texts(page, where, matchId) {
  return page.evaluate(({ where, matchId }) => {
    const strip = (text) => text.split(matchId).join(" ").split(window.location.origin).join(" ");
    const attributes = Array.from(document.querySelectorAll("[title], [aria-label], [placeholder], [alt]"))
      .filter((element) => !element.closest("[hidden]")).map(
      (element) => ["title", "aria-label", "placeholder", "alt"].map((name) => element.getAttribute(name) ?? "")
        .join(" "));
    const svg = Array.from(document.querySelectorAll(".board svg text, .board svg title"), (element) => element.textContent);
    return {
      where, lang: document.documentElement.lang, version: document.querySelector("[data-version]")?.dataset.version,
      page: strip(document.body.innerText), attributes: strip(attributes.join("\n")), title: strip(document.title),
      board: svg.join("\n"), log: document.querySelector("#move-log")?.innerText ?? "",
    };
  }, { where, matchId });
}

const browser = await launchBrowser();
try {
  const playerContext = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
  const player = await playerContext.newPage();
  await player.goto(`${target}/#/`);
  await player.waitForSelector("details.game");
  const before = await player.evaluate(() => document.documentElement.lang);
  await player.locator("#language").selectOption(language);
  await player.waitForFunction((tag) => document.documentElement.lang === tag, language);
  // The lobby, its catalog cut to the games that have the language (the others' titles and summaries are theirs).
  await player.waitForSelector("details.game");
  const translated = (args["translated-games"] ?? game).split(",");
  await player.evaluate((keep) => document.querySelectorAll("details.game").forEach((card) => {
    if (!keep.includes(card.dataset.game)) card.hidden = true;
  }), translated);
  const lobby = await texts(player, "lobby", "\u0000");
  await player.evaluate(() => document.querySelectorAll("details.game").forEach((card) => { card.hidden = false; }));
  const id = await createMatch(player, target, { game, seats: 2, bots: [1], seed: args.seed });

  const spectatorContext = await browser.newContext({ locale: `${language}-${language.toUpperCase()}` });
  const spectator = await spectatorContext.newPage();
  await openMatch(spectator, target, id);

  const snapshots = [lobby, await texts(player, "player", id), await texts(spectator, "spectator", id)];
  let reloaded = null;
  let switched = null;
  /** Switches the player's page to `tag` mid-match and reads it once it has drawn the match again. */
  const switchTo = async (tag) => {
    const { version, seat } = await pageState(player);
    await player.locator("#language").selectOption(tag);
    await player.waitForFunction(({ tag, version }) => document.documentElement.lang === tag
      && Number(document.querySelector(".match-page")?.dataset.version ?? -1) >= version
      && document.querySelector("#last-move")?.textContent, { tag, version });
    const now = await pageState(player);
    return { lang: tag, seat, seatAfter: now.seat, url: player.url(), lastMove: await player.locator("#last-move").innerText(),
      legal: now.legal.map((move) => move.label) };
  };
  const played = await playToEnd(player, seededRandom(Number(args.seed || 1)), {
    afterMove: async (count) => {
      await waitForTurnOrEnd(player);
      if (count === 1) {
        const url = player.url();
        switched = { english: await switchTo("en"), back: await switchTo(language), url };
        await waitForTurnOrEnd(player);
      }
      if (count === 2) {
        await player.reload();
        await player.waitForSelector(".match-page[data-version]");
        reloaded = { lang: await player.evaluate(() => document.documentElement.lang),
          switch: await player.locator("#language").inputValue() };
      }
      const version = (await pageState(player)).version;
      await spectator.waitForFunction((seen) =>
        Number(document.querySelector(".match-page")?.dataset.version ?? -1) >= seen, version, { timeout: 30000 });
      snapshots.push(await texts(player, "player", id), await texts(spectator, "spectator", id));
    },
  });
  await spectator.waitForSelector("#ending");
  snapshots.push(await texts(player, "player", id), await texts(spectator, "spectator", id));

  await player.locator("#replay-link").click();
  await player.waitForSelector('.replay-page[data-version="0"]:not([data-loading])');
  const lastVersion = Number(await player.locator(".replay-page").getAttribute("data-last-version"));
  snapshots.push(await texts(player, "replay", id));
  // The first steps one by one with the button, then every REPLAY_STRIDE-th by the slider, and the last: each
  // state's words were read live already (player and spectator); the replay's own words are in every step.
  for (const version of replayVersions(lastVersion).slice(1)) {
    if (version <= REPLAY_STEPPED) await player.locator("#replay-next").click();
    else await player.locator("#replay-slider").fill(String(version));
    await player.waitForSelector(`.replay-page[data-version="${version}"]:not([data-loading])`);
    snapshots.push(await texts(player, "replay", id));
  }
  const end = await pageState(spectator);
  console.log(JSON.stringify({ match: id, before, reloaded, switched, moves: played.length, status: end.status, lastVersion,
    snapshots }));
} finally {
  await browser.close();
}
