#!/usr/bin/env node
// The game page's layout in one browser: tests/test_web_layout.py brings a
// match of every game at every player count it accepts to mid-game (the
// seat's token in --cases, a JSON file), and this script opens each one at
// desktop (1280x800) and phone (390x844) size, measures where the board, the
// moves and the last move lie, the size of every target and the smallest
// text, saves a screenshot, and runs axe-core on the lobby, every game's page
// and its replay in the light and the dark theme. It prints one JSON line.
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { openLobby } from "./pages.mjs";

const { values: args } = parseArgs({ options: { target: { type: "string" }, cases: { type: "string" },
  out: { type: "string" } } });
const target = args.target;
const cases = JSON.parse(readFileSync(args.cases, "utf8"));

export const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};
const AXE = fileURLToPath(import.meta.resolve("axe-core/axe.min.js"));
const WAIT_MS = 30000;

/** Opens `entry`'s match as its seat (its token put where the page keeps it) and waits for the seat's turn. */
async function openAsSeat(page, entry) {
  await page.goto(`${target}/#/`);
  await page.evaluate(({ match, seat, token }) => localStorage.setItem(`gamehost.seat.${match}`,
    JSON.stringify({ seat, token, playerName: "" })), entry);
  await page.goto(`${target}/#/matches/${entry.match}`);
  await page.waitForFunction(() => {
    const root = document.querySelector(".match-page");
    return root?.dataset.version && document.querySelectorAll("#moves .legal-move:not([disabled])").length > 0
      && document.querySelector("#board svg");
  }, null, { timeout: WAIT_MS });
  await settled(page);
}

/** Waits for the page's finite animations (the last move's pulse, fade-ins): colours and boxes are final. */
function settled(page) {
  return page.evaluate(() => Promise.all(document.getAnimations()
    .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
    .map((animation) => animation.finished.catch(() => undefined))));
}

/** Where things lie on the page, in CSS pixels of the viewport, with the page scrolled to its top. */
function measure(page) {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    const box = (element) => {
      if (!element) return null;
      const { left, top, right, bottom, width, height } = element.getBoundingClientRect();
      return { left, top, right, bottom, width, height };
    };
    const visible = (element) => {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) return false;
      const style = getComputedStyle(element);
      return style.visibility !== "hidden" && style.display !== "none";
    };
    const describe = (element) => element.id ? `#${element.id}`
      : `${element.localName}${element.getAttribute("data-move") ? `[data-move=${element.getAttribute("data-move")}]` : ""}`
        + `${element.getAttribute("data-part") ? `[data-part=${element.getAttribute("data-part")}]` : ""}`
        + `${element.className && typeof element.className === "string" ? `.${element.className.split(" ")[0]}` : ""}`
        + ` "${(element.textContent ?? "").trim().slice(0, 30)}"`;
    // Every control a person can click or tap: the page's own and the board's targets.
    const clickable = Array.from(document.querySelectorAll(
      "main button, main a[href], main input, main select, main summary, main [role=button], "
        + "#board .move-target, #board .part-choice, .site-header button, .site-header a[href], .site-header select, "
        + ".site-header summary, .site-header input"))
      .filter(visible)
      .filter((element) => !element.closest("#board") || element.matches(".move-target, .part-choice"));
    const targets = clickable.map((element) => {
      const rect = element.getBoundingClientRect();
      return { what: describe(element), width: Math.round(rect.width * 10) / 10, height: Math.round(rect.height * 10) / 10 };
    });
    // Text as drawn: CSS font size for the page, the font size times the picture's scale for the board.
    const fonts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || !element || !visible(element)) continue;
      if (element.closest("dialog:not([open]), [hidden], details:not([open]) > :not(summary)")) continue;
      let size = parseFloat(getComputedStyle(element).fontSize);
      const svg = element.closest("svg");
      if (svg) size *= svg.getScreenCTM()?.a ?? 1;
      fonts.push({ what: describe(element), size: Math.round(size * 10) / 10 });
    }
    const lastMove = document.querySelector("#last-move");
    return {
      viewport: { width: window.innerWidth, height: window.innerHeight },
      scrollWidth: document.documentElement.scrollWidth,
      board: box(document.querySelector("#board svg")),
      boardFrame: box(document.querySelector("#board")),
      moves: box(document.querySelector("#moves")),
      firstMove: box(document.querySelector("#moves .legal-move")),
      turn: box(document.querySelector("#turn")),
      lastMove: box(lastMove),
      lastMoveText: lastMove?.innerText ?? "",
      targets,
      fonts,
      legal: document.querySelectorAll("#moves .legal-move").length,
      boardTargets: document.querySelectorAll("#board .move-target, #board .part-choice").length,
      // Targets the player can find without hovering: drawn differently from the same shape when not a target.
      unmarkedTargets: Array.from(document.querySelectorAll("#board .move-target, #board .part-choice"))
        .filter((element) => getComputedStyle(element).outlineStyle === "none"
          && !element.closest("[data-target-marked]") && !element.matches(".part-choice")).map(describe),
    };
  });
}

/** axe-core's serious and critical violations on the page as it is now. */
async function axeViolations(page) {
  await settled(page);
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations
    .filter((violation) => ["serious", "critical"].includes(violation.impact))
    .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help,
      nodes: violation.nodes.slice(0, 4).map((node) => `${node.target.join(" ")}: ${node.failureSummary?.slice(0, 200)}`) })));
}

async function newPage(browser, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return page;
}

// Each step's time on stderr: the test shows it when it fails, and it says where a slow run spends its time.
const began = Date.now();
const timed = (what) => console.error(`${((Date.now() - began) / 1000).toFixed(1)} s: ${what}`);

const browser = await launchBrowser();
try {
  mkdirSync(args.out, { recursive: true });
  const measured = [];
  for (const [size, options] of Object.entries(SIZES)) {
    const page = await newPage(browser, options);
    for (const entry of cases.midgame) {
      await openAsSeat(page, entry);
      const file = `${args.out}/${entry.game}-${entry.players}p-${size}.png`;
      await page.screenshot({ path: file });
      measured.push({ game: entry.game, players: entry.players, size, file, ...(await measure(page)) });
      timed(`${entry.game} at ${entry.players} players, ${size}`);
    }
    await page.context().close();
  }
  const accessibility = [];
  for (const colorScheme of ["light", "dark"]) {
    const page = await newPage(browser, { ...SIZES.desktop, colorScheme });
    await openLobby(page, target);
    accessibility.push({ page: "lobby", colorScheme, violations: await axeViolations(page) });
    for (const entry of cases.midgame.filter((candidate) => candidate.axe)) {
      await openAsSeat(page, entry);
      accessibility.push({ page: `game ${entry.game}`, colorScheme, violations: await axeViolations(page) });
      timed(`axe: game ${entry.game}, ${colorScheme}`);
    }
    for (const entry of cases.finished) {
      await page.goto(`${target}/#/matches/${entry.match}/replay`);
      await page.waitForSelector(".replay-page[data-version]:not([data-loading])", { timeout: WAIT_MS });
      await page.locator("#replay-last").click();
      await page.waitForSelector(`.replay-page[data-version="${entry.version}"]:not([data-loading])`, { timeout: WAIT_MS });
      accessibility.push({ page: `replay ${entry.game}`, colorScheme, violations: await axeViolations(page) });
      timed(`axe: replay ${entry.game}, ${colorScheme}`);
    }
    await page.context().close();
  }
  console.log(JSON.stringify({ measured, accessibility }));
} finally {
  await browser.close();
}
