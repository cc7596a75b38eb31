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

// --part sizes: every game page measured at both sizes; --part accessibility: axe in both themes.
const { values: args } = parseArgs({ options: { target: { type: "string" }, cases: { type: "string" },
  out: { type: "string" }, part: { type: "string" } } });
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
      && document.querySelector("#board svg") && root.dataset.connection === "live";
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
    // The board's words against what they are drawn on (axe-core leaves SVG text out): WCAG's contrast ratio of
    // each text's fill and the fill of the topmost shape beneath its middle, 3:1 for large text, else 4.5:1.
    const channels = (colour) => {
      const probe = document.createElement("canvas").getContext("2d");
      probe.fillStyle = "#000";
      probe.fillStyle = colour;
      const hex = probe.fillStyle;  // "#rrggbb", or "rgba(...)" with an alpha
      if (hex.startsWith("#")) return [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
      return hex.match(/[\d.]+/g).slice(0, 3).map(Number);
    };
    const luminance = (colour) => {
      const [r, g, b] = channels(colour).map((value) => {
        const unit = value / 255;
        return unit <= 0.03928 ? unit / 12.92 : ((unit + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (one, other) => {
      const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a);
      return (light + 0.05) / (dark + 0.05);
    };
    const painted = (element) => {
      const style = getComputedStyle(element);
      return element.localName !== "text" && style.fill !== "none" && Number(style.fillOpacity) > 0.5
        && Number(style.opacity) > 0.5 && !/rgba\(.*, 0\)$/.test(style.fill) && style.visibility !== "hidden";
    };
    const lowContrast = [];
    const svg = document.querySelector("#board svg");
    for (const text of svg ? Array.from(svg.querySelectorAll("text")) : []) {
      const rect = text.getBoundingClientRect();
      if (!text.textContent.trim() || rect.width === 0) continue;
      const beneath = document.elementsFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2)
        .find((element) => svg.contains(element) && element !== svg && painted(element));
      const ground = beneath ? getComputedStyle(beneath).fill : "#fff";
      const style = getComputedStyle(text);
      const size = parseFloat(style.fontSize) * (svg.getScreenCTM()?.a ?? 1);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const measured = ratio(style.fill, ground);
      if (measured < (large ? 3 : 4.5)) {
        lowContrast.push({ text: text.textContent.trim().slice(0, 30), fill: style.fill, ground,
          ratio: Math.round(measured * 100) / 100 });
      }
    }
    // The last move, or the turn summary that may stand in its place.
    const lastMove = document.querySelector("#last-move, #turn-summary, .turn-summary, .last-move");
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
      lowContrast,
      legal: document.querySelectorAll("#moves .legal-move").length,
      boardTargets: document.querySelectorAll("#board .move-target, #board .part-choice").length,
      // Targets a touch player finds without hovering: each one ringed while it is not hovered.
      unmarkedTargets: Array.from(document.querySelectorAll("#board .move-target, #board .part-choice"))
        .filter((element) => getComputedStyle(element).outlineStyle === "none").map(describe),
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
  for (const [size, options] of args.part === "accessibility" ? [] : Object.entries(SIZES)) {
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
  // axe in both themes on one page load each: the system's scheme is switched in place (the page follows
  // prefers-color-scheme), which is what the header's toggle changes too.
  const accessibility = [];
  if (args.part !== "sizes") {
    const page = await newPage(browser, SIZES.desktop);
    const bothThemes = async (name) => {
      for (const colorScheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme });
        accessibility.push({ page: name, colorScheme, violations: await axeViolations(page),
          background: await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor) });
        timed(`axe: ${name}, ${colorScheme}`);
      }
    };
    await openLobby(page, target);
    await bothThemes("lobby");
    for (const entry of cases.midgame.filter((candidate) => candidate.axe)) {
      await page.emulateMedia({ colorScheme: "light" });
      await openAsSeat(page, entry);
      await bothThemes(`game ${entry.game}`);
    }
    for (const entry of cases.finished) {
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto(`${target}/#/matches/${entry.match}/replay`);
      await page.waitForSelector(".replay-page[data-version]:not([data-loading])", { timeout: WAIT_MS });
      await page.locator("#replay-last").click();
      await page.waitForSelector(`.replay-page[data-version="${entry.version}"]:not([data-loading])`, { timeout: WAIT_MS });
      await bothThemes(`replay ${entry.game}`);
    }
  }
  console.log(JSON.stringify({ measured, accessibility }));
} finally {
  await browser.close();
}
