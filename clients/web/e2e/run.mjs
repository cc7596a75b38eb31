#!/usr/bin/env node
// The browser tests' scenarios, one per invocation: tests/test_web_client.py
// runs `node clients/web/e2e/run.mjs <scenario> --target <web url> ...` and
// checks the JSON printed on the last line against the host.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";
import {
  boardTexts, createMatch, openLobby, openMatch, pageState, playMove, playToEnd, seededRandom, waitForTurnOrEnd,
} from "./pages.mjs";

const OPTIONS = ["target", "game", "bot", "seats", "choices", "reload-after", "moves", "missing", "options-game",
  "bad-option", "bad-value", "drop-after", "out", "seconds", "token", "seed", "admin-token", "other-token",
  "newcomer-token", "matches", "match", "other", "filler-token"];
const { values: args, positionals: [scenarioName] } = parseArgs({
  allowPositionals: true, options: Object.fromEntries(OPTIONS.map((name) => [name, { type: "string" }])),
});
const target = args.target;

const scenarios = {
  /** Create a match against bots from the lobby and play it to the end; optionally reload mid-match. */
  async play(browser) {
    const page = await newPage(browser);
    const id = await createMatch(page, target, { game: args.game, seats: Number(args.seats || 2),
      bots: range(1, Number(args.seats || 2) - 1) });
    const before = await pageState(page);
    let seatAfterReload = null;
    const moves = await playToEnd(page, seededRandom(Number(args.choices || 1)), {
      afterMove: async (count) => {
        if (count !== Number(args["reload-after"])) return;
        await page.reload();
        await page.waitForSelector(".match-page[data-version]");
        seatAfterReload = (await pageState(page)).seat;
      },
    });
    const end = await pageState(page);
    return { match: id, seat: before.seat, seatAfterReload, moves, status: end.status, version: end.version,
      turn: await page.locator("#turn").innerText(), result: await page.locator("#result").innerText(),
      log: await page.locator("#move-log li").allInnerTexts(), html: await page.content() };
  },

  /**
   * Against a bot, on a 720 px wide page: every move made by clicks on the
   * board only (moves in parts composed part by part), to the end. Also
   * measures, before each move, the smallest text and highlighted target
   * the page shows (after the first click of a move in parts: its
   * sub-choices drawn).
   */
  async compose(browser) {
    const page = await newPage(browser, { viewport: { width: 720, height: 1000 } });
    const id = await createMatch(page, target, { game: args.game, seats: 2, bots: [1], seed: args.seed });
    const sizes = { minTextPx: Infinity, minTargetPx: Infinity };
    const measure = () => page.evaluate(() => {
      const svg = document.querySelector("#board svg");
      const scale = svg.getScreenCTM().a;  // the picture may be scaled to the page's height, not its width
      const shown = (element) => element.getBoundingClientRect().width > 0;
      const fonts = Array.from(svg.querySelectorAll("text"),
        (text) => shown(text) ? Number(text.getAttribute("font-size")) * scale : Infinity);
      const targets = Array.from(svg.querySelectorAll(".part-choice, .move-target"), (element) => {
        const box = element.getBoundingClientRect();
        return Math.min(box.width, box.height);
      });
      return { minTextPx: Math.min(...fonts), minTargetPx: Math.min(...targets) };
    });
    const moves = await playToEnd(page, seededRandom(Number(args.choices || 1)), {
      boardOnly: true,
      beforeMove: async () => {
        const now = await measure();
        sizes.minTextPx = Math.min(sizes.minTextPx, now.minTextPx);
        sizes.minTargetPx = Math.min(sizes.minTargetPx, now.minTargetPx);
      },
    });
    const end = await pageState(page);
    return { match: id, seat: end.seat, moves, status: end.status, version: end.version, sizes };
  },

  /** A player page and a spectator page (no token) on one match of a hidden-information game. */
  async spectate(browser) {
    const player = await newPage(browser);
    const spectator = await newPage(browser);
    const id = await createMatch(player, target, { game: args.game, seats: 2, bots: [1], seed: args.seed });
    await openMatch(spectator, target, id);
    const random = seededRandom(7);
    const seenBySpectator = [];
    for (let count = 0; count < Number(args.moves || 4); count += 1) {
      await waitForTurnOrEnd(player);
      const state = await pageState(player);
      if (state.status !== "active") break;
      await playMove(player, state.legal[Math.floor(random() * state.legal.length)].id);
      await waitForTurnOrEnd(player);
      const version = (await pageState(player)).version;
      // Live: the spectator's page reaches the player's version without a reload.
      await spectator.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) >= v,
        version, { timeout: 15000 });
      seenBySpectator.push((await pageState(spectator)).version);
    }
    await waitForTurnOrEnd(player);
    const playerState = await pageState(player);
    await spectator.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) === v,
      playerState.version, { timeout: 15000 });
    const spectatorState = await pageState(spectator);
    return {
      match: id, version: playerState.version, status: playerState.status, seenBySpectator,
      token: await player.evaluate((match) => JSON.parse(localStorage.getItem(`gamehost.seat.${match}`)).token, id),
      player: { seat: playerState.seat, texts: await boardTexts(player), legal: playerState.legal.length,
        html: await player.content() },
      spectator: {
        seat: spectatorState.seat, texts: await boardTexts(spectator), html: await spectator.content(),
        identity: await spectator.locator("#identity").innerText(),
        seedNotice: await spectator.locator("#seed-chosen").evaluate((notice) => notice.hidden ? null : notice.innerText),
        controls: await spectator.locator("#moves .legal-move, #board [data-move], #board .move-target").count(),
        log: await spectator.locator("#move-log li").allInnerTexts(),
      },
    };
  },

  /** Errors a person meets: a match that does not exist, a stale move from a second tab, bad options. */
  async errors(browser) {
    // A player reads the advice; the code, reason and the host's message wait behind "Details" (closed).
    const problem = (page) => page.locator("#problems .problem, .problem-area .problem").first().evaluate((panel) => ({
      code: panel.dataset.code, reason: panel.dataset.reason, text: panel.textContent, shown: panel.innerText,
      detailsOpen: panel.querySelector("details.problem-details")?.open ?? null }));

    const page = await newPage(browser);
    await openMatch(page, target, args.missing);
    const notFound = await problem(page);

    // Two tabs of one browser hold the same seat. The second tab's live stream is held up (a slow
    // network), so it still shows the old position when its player clicks.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const first = await context.newPage();
    const id = await createMatch(first, target, { game: "tictactoe", seats: 2, bots: [1] });
    const second = await context.newPage();
    await second.route("**/gamehost.v1.GameHost/WatchMatch", () => {});
    await openMatch(second, target, id);
    await waitForTurnOrEnd(second);
    const [moveA, moveB] = (await pageState(first)).legal;
    await playMove(first, moveA.id);
    await waitForTurnOrEnd(first);
    const staleVersion = (await pageState(second)).version;
    await second.locator(`#moves .legal-move[data-move-id="${moveB.id}"]`).click();
    await second.waitForSelector("#problems .problem");
    await second.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) > v, staleVersion);
    const stale = { ...(await problem(second)), staleVersion, versionAfter: (await pageState(second)).version,
      currentVersion: (await pageState(first)).version };

    // The last open seat, offered to two spectators: the first takes it from the game page, the
    // second (whose page has not seen that yet) is told the match is no longer open.
    const openId = await createMatch(await newPage(browser), target, { game: "tictactoe", seats: 2, bots: [] });
    const late = await newPage(browser);
    await late.route("**/gamehost.v1.GameHost/WatchMatch", () => {});
    await openMatch(late, target, openId);
    const early = await newPage(browser);
    await openMatch(early, target, openId);
    await early.locator('#identity .join-seat[data-seat="1"]').click();
    await early.waitForSelector('.match-page[data-seat="1"][data-status="active"]');
    await late.locator('#identity .join-seat[data-seat="1"]').click();
    await late.waitForSelector("#problems .problem");
    const lateJoin = { ...(await problem(late)), earlySeat: (await pageState(early)).seat };

    // A seat token this browser kept that the host does not know (e.g. from another host): the page
    // says so, forgets it and goes on as a spectator.
    const forgotten = await newPage(browser);
    await forgotten.goto(`${target}/#/`);
    await forgotten.evaluate((match) => localStorage.setItem(`gamehost.seat.${match}`,
      JSON.stringify({ seat: 0, token: "not-a-token-of-this-match", playerName: "" })), openId);
    await openMatch(forgotten, target, openId);
    await forgotten.waitForSelector("#problems .problem");
    const unknownToken = { ...(await problem(forgotten)), seat: (await pageState(forgotten)).seat,
      kept: await forgotten.evaluate((match) => localStorage.getItem(`gamehost.seat.${match}`), openId) };

    // Options the host refuses: the field violation is shown next to its input.
    await openLobby(page, target);
    const card = page.locator(`details.game[data-game="${args["options-game"]}"]`);
    await card.locator("summary").click();
    await card.locator(`[name="option:${args["bad-option"]}"]`).fill(args["bad-value"]);
    await card.locator("button.create-match").click();
    await card.locator(".problem").first().waitFor();
    const invalidOptions = {
      ...(await card.locator(".problem").first().evaluate((panel) => ({ code: panel.dataset.code,
        reason: panel.dataset.reason, text: panel.textContent }))),
      marked: await card.locator(".option.invalid [name]").evaluateAll((inputs) => inputs.map((input) => input.name)),
      markedLabels: await card.locator(".option.invalid label").allInnerTexts(),
    };
    return { notFound, stale, lateJoin, unknownToken, invalidOptions };
  },

  /** Plays, then the host goes away and comes back (driven by the test over stdin/stdout). */
  async reconnect(browser) {
    const page = await newPage(browser);
    const id = await createMatch(page, target, { game: args.game, seats: 2, bots: [1] });
    const random = seededRandom(3);
    const moves = await playToEnd(page, random, { maxMoves: Number(args["drop-after"]) });
    await waitForTurnOrEnd(page);
    const before = await pageState(page);
    await step({ step: "drop-now", match: id, version: before.version });
    await page.waitForSelector('.match-page[data-connection="reconnecting"]', { timeout: 20000 });
    const badge = await page.locator("#connection").innerText();
    await step({ step: "reconnecting", badge });
    await page.waitForSelector('.match-page[data-connection="live"]', { timeout: 30000 });
    const rest = await playToEnd(page, random);
    const end = await pageState(page);
    return { match: id, badge, versionBeforeDrop: before.version, movesBeforeDrop: moves, movesAfter: rest,
      status: end.status, seat: end.seat, log: await page.locator("#move-log li").allInnerTexts() };
  },

  /** A plugin SVG that attacks the page: nothing of it may run, its move target must still work. */
  async hostile(browser) {
    const page = await newPage(browser);
    await createMatch(page, target, { game: args.game });
    await waitForTurnOrEnd(page);
    const inspect = () => page.evaluate(() => {
      const board = document.querySelector("#board");
      const elements = Array.from(board.querySelectorAll("*"));
      return {
        hostile: window.__hostile ?? null,
        svg: board.querySelectorAll("svg").length,
        forbiddenElements: elements.filter((element) =>
          /^(script|foreignobject|iframe|style|set|animate|div|img)$/i.test(element.localName)).map((e) => e.localName),
        handlers: elements.flatMap((element) => Array.from(element.attributes))
          .filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => attribute.name),
        links: elements.flatMap((element) => Array.from(element.attributes))
          .filter((attribute) => /href$|^src$/i.test(attribute.name)).map((attribute) => attribute.value),
        targets: Array.from(board.querySelectorAll(".move-target"), (element) => element.getAttribute("data-move")),
      };
    });
    const drawn = await inspect();
    // Everything a person might do on the board: hover, click the link, click the target.
    let viaBoard, viaList, interactionError = null;
    try {
      await page.locator("#board svg").hover();
      await page.locator("#hostile-link").click({ force: true });
      viaBoard = await playMove(page, "go");
      await waitForTurnOrEnd(page);
      viaList = await playMove(page, "stay");
      await page.waitForTimeout(300);
    } catch (error) {
      interactionError = error.message;
    }
    return { drawn, viaBoard, viaList, interactionError, after: await inspect().catch((error) => error.message),
      state: await pageState(page), url: page.url() };
  },

  /** A turn timeout set in the lobby: the clock runs down, then the host moves for the idle player. */
  async timeout(browser) {
    const page = await newPage(browser);
    const id = await createMatch(page, target, { game: "tictactoe", seats: 2, bots: [1], turnTimeout: args.seconds });
    await page.waitForFunction(() => /time left \d+:\d\d/.test(document.querySelector("#turn-clock").textContent));
    const clock = await page.locator("#turn-clock").innerText();
    await page.locator("#move-log li", { hasText: "timed out" }).first().waitFor({ timeout: 30000 });
    return { match: id, clock, log: await page.locator("#move-log li").allInnerTexts() };
  },

  /**
   * A signed-in user on two devices: the first signs in through the address fragment, creates a match and
   * plays; the second signs in with the lobby's sign-in field, finds the match in "My matches", gets the same
   * seat back and moves. A third browser, signed in with nothing the host accepts, then signed out, watches
   * without controls. Then an admin aborts the match, and the first signs out.
   */
  async signIn(browser) {
    const signedIn = (page) => page.waitForSelector('#sign-in-bar[data-state="signed-in"]');
    const bar = (page) => page.locator("#sign-in-bar").evaluate((element) => ({ ...element.dataset,
      text: element.innerText }));

    const first = await newPage(browser);
    await first.goto(`${target}/#/?token=${args.token}`);
    await signedIn(first);
    const address = first.url();
    const firstBar = await bar(first);
    const id = await createMatch(first, target, { game: "tictactoe", seats: 2, bots: [1] });
    const random = seededRandom(5);
    const firstMoves = await playToEnd(first, random, { maxMoves: 1 });
    await waitForTurnOrEnd(first);
    const firstState = await pageState(first);
    const seedNotice = await first.locator("#seed-chosen").evaluate((notice) => notice.hidden ? null : notice.innerText);

    const second = await newPage(browser);
    await openLobby(second, target);
    await second.locator("#sign-in-bar summary").click();
    await second.locator("#bearer-token").fill(args.token);
    await second.locator("#sign-in-bar button[type=submit]").click();
    await signedIn(second);
    const mine = second.locator(`#my-matches tr[data-match="${id}"]`);
    await mine.waitFor();
    const mineText = await mine.innerText();
    const lobbyName = await second.locator("#player-name").evaluate((input) => ({ value: input.value,
      disabled: input.disabled }));
    await mine.locator("a.open-match").click();
    await second.waitForSelector(".match-page[data-version]");
    await waitForTurnOrEnd(second);
    const reclaimed = await pageState(second);
    const reclaimedAs = await second.locator(".match-page").getAttribute("data-reclaimed");
    const secondMove = await playToEnd(second, random, { maxMoves: 1 });
    await waitForTurnOrEnd(second);
    const secondState = await pageState(second);
    const secondStorage = await second.evaluate(() => ({ session: sessionStorage.getItem("gamehost.bearer-token"),
      local: localStorage.getItem("gamehost.bearer-token") }));

    // The first browser's token for the seat stopped working (the host replaced it): it goes on, signed in.
    await first.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) >= v,
      secondState.version);
    const firstAfter = await pageState(first);

    const spectator = await newPage(browser);
    await spectator.goto(`${target}/#/`);
    // The embedding page learns of the refusal (to renew the token), once, without the token.
    await spectator.evaluate(() => {
      window.refusals = [];
      window.addEventListener("gamehost:sign-in-refused", (event) => window.refusals.push(event.detail));
      window.gamehost.setToken("not.a.token");
    });
    await spectator.waitForSelector('#sign-in-bar[data-state="refused"]');
    await spectator.waitForSelector("#games .problem");
    const refusedBar = { ...(await bar(spectator)), refusals: await spectator.evaluate(() => window.refusals) };
    await spectator.evaluate(() => window.gamehost.signOut());
    await spectator.waitForSelector('#sign-in-bar[data-state="anonymous"]');
    await openMatch(spectator, target, id);
    await spectator.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) >= v,
      secondState.version);
    const watching = { ...(await pageState(spectator)),
      identity: await spectator.locator("#identity").innerText(),
      controls: await spectator.locator("#moves .legal-move, #board .move-target").count(),
      html: await spectator.content() };

    // An operator aborts the match (a Connect call with an admin's token): every page says why.
    const aborted = await fetch(`${target}/gamehost.v1.GameHostAdmin/AbortMatch`, { method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${args["admin-token"]}` },
      body: JSON.stringify({ name: `matches/${id}`, reason: "the test is over" }) });
    if (!aborted.ok) throw new Error(`AbortMatch: ${aborted.status} ${await aborted.text()}`);
    await spectator.waitForSelector('.match-page[data-status="aborted"]');
    await first.waitForSelector('.match-page[data-status="aborted"]');
    const abort = { turn: await spectator.locator("#turn").innerText(),
      lastLogLine: (await spectator.locator("#move-log li").allInnerTexts()).pop(),
      firstTurn: await first.locator("#turn").innerText() };

    // Signing out on the first device forgets the token and the lobby's "My matches".
    await openLobby(first, target);
    abort.lobby = await first.locator(`#my-matches tr[data-match="${id}"] td:nth-child(3)`).innerText();
    await first.locator("#sign-out").click();
    await first.waitForSelector('#sign-in-bar[data-state="anonymous"]');
    const afterSignOut = { storage: await first.evaluate(() => sessionStorage.getItem("gamehost.bearer-token")),
      seatToken: await first.evaluate((match) => localStorage.getItem(`gamehost.seat.${match}`), id),
      myMatchesHidden: await first.locator("#my-matches").evaluate((section) => section.hidden) };
    return { match: id, address, firstBar, firstMoves, firstState, seedNotice, mineText, lobbyName, reclaimed, reclaimedAs,
      secondMove, secondState, secondStorage, firstAfter, refusedBar, watching, abort, afterSignOut };
  },

  /** Screenshots of the lobby and of every game's page at desktop and phone width; whether anything is wider
   * than the screen (a page cut off on a phone). */
  async screenshots(browser) {
    mkdirSync(args.out, { recursive: true });
    const shots = [];
    const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const page = await newPage(browser, viewport);
      await openLobby(page, target);
      const games = await page.locator("details.game").evaluateAll((cards) => cards.map((card) => card.dataset.game));
      await page.locator("details.game summary").first().click();
      await page.screenshot({ path: `${args.out}/lobby-${width}.png`, fullPage: true });
      const lobbyOverflow = await overflow(page);
      for (const game of games) {
        await createMatch(page, target, { game });
        await waitForTurnOrEnd(page);
        const file = `${args.out}/${game}-${width}.png`;
        await page.screenshot({ path: file, fullPage: true });
        shots.push({ game, width, file, svg: await page.locator("#board svg").count(), overflow: await overflow(page),
          lobbyOverflow, ...(await pageState(page)) });
      }
      await page.context().close();
    }
    return { shots };
  },

  /** Plays a match against a chosen bot to the end, then steps through its replay with the buttons and the
   * keyboard. */
  async replay(browser) {
    const page = await newPage(browser);
    await openLobby(page, target);
    const botChoices = await page.locator(`details.game[data-game=${JSON.stringify(args.game)}] select[name="bot"] option`)
      .evaluateAll((options) => options.map((option) => ({ name: option.value, text: option.textContent })));
    const id = await createMatch(page, target, { game: args.game, seats: 2, bots: [1], bot: args.bot });
    await waitForTurnOrEnd(page);
    const titleOnTurn = await page.title();
    // Whether the turn line ever said the bot is thinking (it does while the host paces the bot).
    await page.evaluate(() => {
      window.__turnTexts = new Set();
      const turn = document.querySelector("#turn");
      new MutationObserver(() => window.__turnTexts.add(turn.textContent)).observe(turn,
        { childList: true, characterData: true, subtree: true });
    });
    // After the bot's first answer: the move named above the board, its mark on the board marked.
    const markedOf = (where) => page.evaluate((board) => Array.from(document.querySelectorAll(`${board} .last-move-part`),
      (element) => `${element.localName}:${element.textContent}`), where);
    let afterBot = null;
    const played = await playToEnd(page, seededRandom(3), { afterMove: async (count) => {
      if (count !== 1) return;
      await waitForTurnOrEnd(page);
      afterBot = { lastMove: await page.locator("#last-move").innerText(), marked: await markedOf("#board") };
    } });
    const turnTexts = await page.evaluate(() => Array.from(window.__turnTexts));
    const ending = await page.locator("#ending").innerText();
    const title = await page.title();
    await page.locator("#replay-link").click();
    await page.waitForSelector('.replay-page[data-version="0"]');
    const lastVersion = Number(await page.locator(".replay-page").getAttribute("data-last-version"));
    const shown = async () => ({
      version: Number(await page.locator(".replay-page").getAttribute("data-version")),
      step: await page.locator("#replay-step").innerText(), texts: await boardTextsOf(page, "#replay-board"),
      marked: await markedOf("#replay-board"),
      position: await page.locator("#replay-position").innerText() });
    const steps = [await shown()];
    // The first half with the "Next" button, the rest with the right arrow key.
    for (let version = 1; version <= lastVersion; version += 1) {
      if (version <= lastVersion / 2) await page.locator("#replay-next").click();
      else await page.keyboard.press("ArrowRight");
      await page.waitForSelector(`.replay-page[data-version="${version}"]:not([data-loading])`);
      steps.push(await shown());
    }
    const atEnd = { nextDisabled: await page.locator("#replay-next").isDisabled(),
      ending: await page.locator("#replay-ending").innerText() };
    await page.keyboard.press("Home");
    await page.waitForSelector('.replay-page[data-version="0"]:not([data-loading])');
    await page.locator("#replay-last").click();
    await page.waitForSelector(`.replay-page[data-version="${lastVersion}"]:not([data-loading])`);
    const rawComplete = await page.locator("#match-log").getAttribute("data-complete");
    return { match: id, botChoices, titleOnTurn, turnTexts, afterBot, played: played.length, ending, title, lastVersion, steps,
      atEnd, rawComplete };
  },

  /** axe-core in the real page: the lobby, a game page and a replay page, in the light and the dark theme. */
  async accessibility(browser) {
    const results = [];
    const toggled = [];
    for (const colorScheme of ["light", "dark"]) {
      const page = await newPage(browser, { ...VIEWPORTS.desktop, colorScheme });
      const check = async (name) => results.push({ page: name, colorScheme, violations: await axeViolations(page) });
      await openLobby(page, target);
      await page.locator(`details.game[data-game=${JSON.stringify(args.game)}] summary`).click();
      await check("lobby");
      // The header's toggle overrides the system's scheme: system, then the other one, then back.
      const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const system = await background();
      await page.locator("#theme-toggle").click();
      if (colorScheme === "dark") await page.locator("#theme-toggle").click(); // it cycles system, dark, light
      toggled.push({ colorScheme, system, toggled: await background(),
        theme: await page.evaluate(() => document.documentElement.dataset.theme ?? "") });
      while ((await page.evaluate(() => document.documentElement.dataset.theme ?? "")) !== "") {
        await page.locator("#theme-toggle").click();
      }
      await createMatch(page, target, { game: args.game, seats: 2, bots: [1] });
      await waitForTurnOrEnd(page);
      await check("game");
      await playToEnd(page, seededRandom(5));
      await check("finished game");
      await page.locator("#replay-link").click();
      await page.waitForSelector(".replay-page[data-version]:not([data-loading])");
      await page.locator("#replay-next").click();
      await page.waitForSelector('.replay-page[data-version="1"]:not([data-loading])');
      await check("replay");
      await page.context().close();
    }
    // Every game's page mid-match and its replay, in both themes: tests/test_web_layout.py.
    return { results, toggled };
  },

  /**
   * "Your turn" in the lobby of two signed-in players (--token, --other-token) and a newcomer with no match
   * (--newcomer-token). --matches names three matches: the first the first player's turn, the second the
   * other's, the third the first player's with a chess clock. The first player opens the first match from the
   * list and moves; their list drops it and the other player's, never reloaded, shows it.
   */
  async yourTurn(browser) {
    const [theirTurn, othersTurn, clocked] = args.matches.split(",");
    const signedInLobby = async (token) => {
      const page = await newPage(browser);
      await page.goto(`${target}/#/?token=${token}`);
      await page.waitForSelector('#sign-in-bar[data-state="signed-in"]');
      await page.waitForSelector("#your-turn[data-count]");
      return page;
    };
    const listed = (page) => page.locator("#your-turn-list li").evaluateAll((items) =>
      items.map((item) => ({ match: item.dataset.match, text: item.innerText })));
    const showsExactly = (page, ids) => page.waitForFunction((wanted) =>
      Array.from(document.querySelectorAll("#your-turn-list li"), (item) => item.dataset.match).join() === wanted,
      ids.join(), { timeout: 30000 });

    const player = await signedInLobby(args.token);
    await showsExactly(player, [clocked, theirTurn]);  // the running clock first
    const before = { items: await listed(player), title: await player.title(),
      heading: await player.locator("#your-turn h2").innerText() };
    await player.waitForFunction(() => /waiting [1-9]/.test(document.querySelector("#your-turn-list").innerText));
    const ticked = await listed(player);
    const other = await signedInLobby(args["other-token"]);
    await showsExactly(other, [othersTurn]);
    const otherBefore = await listed(other);
    await other.evaluate(() => { window.notReloaded = true; });  // gone if the page reloads
    const newcomer = await signedInLobby(args["newcomer-token"]);
    const empty = { note: await newcomer.locator("#your-turn .your-turn-note").innerText(),
      count: await newcomer.locator("#your-turn").getAttribute("data-count"), title: await newcomer.title() };

    if (args.out) {
      mkdirSync(args.out, { recursive: true });
      await player.screenshot({ path: `${args.out}/lobby-your-turn.png`, fullPage: true });
    }
    const accessibility = await axeViolations(player);
    await player.locator(`#your-turn-list li[data-match="${theirTurn}"] a.open-match`).click();
    await player.waitForSelector(".match-page[data-version]");
    const opened = await pageState(player);
    const moves = await playToEnd(player, seededRandom(3), { maxMoves: 1 });
    await player.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) > v,
      opened.version);
    await player.locator('a[href="#/"]').first().click();
    await showsExactly(player, [clocked]);
    const after = await listed(player);
    // The other player's lobby was left open: the match comes in without a reload.
    await showsExactly(other, [othersTurn, theirTurn]);  // the longest waiting first
    const otherAfter = { items: await listed(other), sameDocument: await other.evaluate(() => window.notReloaded),
      title: await other.title() };
    return { before, ticked, otherBefore, empty, opened, moves, after, otherAfter, accessibility };
  },

  /**
   * Undo by agreement between two people in tic-tac-toe (--game), each in a browser of their own, and a
   * spectator: the first player moves and asks to take it back, the second accepts (the move leaves the board);
   * the first moves again and asks, the second refuses (the move stays); the first asks once more and withdraws.
   */
  /**
   * "Play with a friend": the lobby's button makes a private match with the creator in the first seat and
   * shows its invitation link; the link, opened in a second browser (its own context: no shared storage),
   * takes the other seat. Three moves, a draw offered and declined, then the friend resigns (confirming) and
   * both pages show the result.
   */
  async friend(browser) {
    const first = await newPage(browser);
    await openLobby(first, target);
    const card = first.locator(`details.game[data-game="${args.game}"]`);
    await card.locator("summary").click();
    await card.locator("button.play-with-friend").click({ timeout: CLICK_MS });
    await first.waitForSelector('.match-page[data-seat="0"][data-status="open"]', { timeout: WAIT_MS });
    await first.waitForSelector("#invitation:not([hidden]) #invitation-link", { timeout: WAIT_MS });
    const link = await first.locator("#invitation-link").inputValue();
    const id = new URL(first.url()).hash.split("/").pop();
    const invitationText = await first.locator("#invitation").innerText();
    await screenshot(first, "play-with-a-friend-link");

    const second = await newPage(browser);
    await second.goto(link);
    await second.waitForSelector('.match-page[data-seat="1"][data-status="active"]', { timeout: WAIT_MS });
    const addressAfterJoin = second.url();
    await first.waitForSelector('.match-page[data-status="active"]', { timeout: WAIT_MS });
    const invitationHidden = await first.locator("#invitation").evaluate((element) => element.hidden);

    const moves = [];
    for (const page of [first, second, first]) {
      await waitForTurnOrEnd(page);
      const { legal } = await pageState(page);
      moves.push(legal[0].id);
      await playMove(page, legal[0].id);
    }
    await waitForTurnOrEnd(second);

    await first.locator("#draw-offer").click({ timeout: CLICK_MS });
    await second.waitForSelector("#draw-accept", { timeout: WAIT_MS });
    const offered = {
      first: await first.locator("#endings").innerText(),
      second: await second.locator("#endings").innerText(),
      secondButtons: await second.locator("#endings button").allInnerTexts(),
    };
    await second.locator("#draw-decline").click({ timeout: CLICK_MS });
    await first.waitForSelector("#draw-offer", { timeout: WAIT_MS });

    second.once("dialog", (dialog) => void dialog.accept());
    await second.locator("#resign").click({ timeout: CLICK_MS });
    await first.waitForSelector('.match-page[data-status="finished"] #ending', { timeout: WAIT_MS });
    await second.waitForSelector('.match-page[data-status="finished"] #ending', { timeout: WAIT_MS });
    const ended = async (page) => ({ ending: await page.locator("#ending").innerText(),
      turn: await page.locator("#turn").innerText(), identity: await page.locator("#identity").innerText(),
      log: await page.locator("#move-log li").allInnerTexts(), problem: (await pageState(page)).problem,
      endingsHidden: await page.locator("#endings").evaluate((element) => element.hidden) });
    const result = { first: await ended(first), second: await ended(second) };
    await screenshot(first, "play-with-a-friend");
    await screenshot(second, "play-with-a-friend-resigned");
    return { match: id, link, invitationText, addressAfterJoin, invitationHidden, moves, offered, result };
  },

  async undo(browser) {
    const first = await newPage(browser);
    const id = await createMatch(first, target, { game: args.game, seats: 2, bots: [] });
    const second = await newPage(browser);
    await openLobby(second, target);
    await second.locator(`tr[data-match="${id}"] .join-seat[data-seat="1"]`).click({ timeout: CLICK_MS });
    await second.waitForSelector('.match-page[data-seat="1"][data-status="active"]');
    const spectator = await newPage(browser);
    await openMatch(spectator, target, id);
    await waitForTurnOrEnd(first);

    const panel = (page) => page.locator("#undo").evaluate((element) => ({
      state: element.dataset.state, outcome: element.dataset.outcome, hidden: element.hidden,
      message: element.querySelector("#undo-message").textContent,
      live: element.querySelector("#undo-message").getAttribute("aria-live"),
      expiry: element.querySelector("#undo-expiry").textContent,
      buttons: Array.from(element.querySelectorAll("button"), (button) => ({ id: button.id, text: button.textContent,
        label: button.getAttribute("aria-label"), disabled: button.disabled })),
      reason: element.querySelector("#undo-reason")?.textContent ?? null,
      height: element.getBoundingClientRect().height,
      boardTop: document.querySelector("#board").getBoundingClientRect().top,
    }));
    const inState = (page, state, outcome = "") => page.waitForSelector(
      `#undo[data-state="${state}"]${outcome ? `[data-outcome="${outcome}"]` : ""}`, { timeout: WAIT_MS });
    const click = (page, selector) => page.locator(selector).click({ timeout: CLICK_MS });
    const versionAbove = (page, version) => page.waitForFunction(
      (v) => Number(document.querySelector(".match-page").dataset.version) > v, version, { timeout: WAIT_MS });

    const beforeAny = await panel(first);
    const [move] = (await pageState(first)).legal;
    await playMove(first, move.id);
    await first.waitForSelector("#undo-ask:not([disabled])", { timeout: WAIT_MS });
    await versionAbove(second, (await pageState(first)).version - 1);  // the move reached the other page too
    const afterMove = { first: await panel(first), second: await panel(second) };

    // Asked, then accepted: the move leaves everyone's board.
    await click(first, "#undo-ask");
    await second.waitForSelector("#undo-accept", { timeout: WAIT_MS });
    await inState(spectator, "asked");
    await inState(first, "asked");
    const asked = { first: await panel(first), second: await panel(second), spectator: await panel(spectator) };
    await screenshot(second, "undo-asked");
    const accessibility = await axeViolations(second);
    const askedVersion = (await pageState(second)).version;
    await click(second, "#undo-accept");
    await Promise.all([first, second, spectator].map((page) => inState(page, "outcome", "undone")));
    await versionAbove(spectator, askedVersion);
    await waitForTurnOrEnd(first);
    const undone = { first: await panel(first), second: await panel(second), spectator: await panel(spectator),
      state: await pageState(first), texts: await boardTexts(first), spectatorTexts: await boardTexts(spectator),
      lastMove: await first.locator("#last-move").innerText(),
      takenBack: await first.locator("#move-log li.taken-back").allInnerTexts() };

    // Played again, asked, refused: the move stays.
    await playMove(first, move.id);
    await first.waitForSelector("#undo-ask:not([disabled])", { timeout: WAIT_MS });
    await click(first, "#undo-ask");
    await second.waitForSelector("#undo-refuse", { timeout: WAIT_MS });
    await click(second, "#undo-refuse");
    await Promise.all([first, second].map((page) => inState(page, "outcome", "refused")));
    await waitForTurnOrEnd(second);
    const refused = { first: await panel(first), second: await panel(second), state: await pageState(second),
      texts: await boardTexts(second), lastMove: await second.locator("#last-move").innerText() };

    // Asked once more and withdrawn by the asker. The second player's other tab, opened during the ask (it shows
    // the ask open as it opens) and whose live stream is held up, still offers to answer: the host refuses.
    await first.waitForSelector("#undo-ask:not([disabled])", { timeout: WAIT_MS });
    await click(first, "#undo-ask");
    await first.waitForSelector("#undo-withdraw", { timeout: WAIT_MS });
    await inState(second, "asked");
    const stale = await second.context().newPage();
    await stale.route("**/gamehost.v1.GameHost/WatchMatch", () => {});
    await openMatch(stale, target, id);
    await stale.waitForSelector("#undo-accept", { timeout: WAIT_MS });
    const staleAsked = await panel(stale);
    await click(first, "#undo-withdraw");
    await Promise.all([first, second].map((page) => inState(page, "outcome", "withdrawn")));
    const withdrawn = { first: await panel(first), second: await panel(second) };
    await click(stale, "#undo-accept");
    await stale.waitForSelector("#problems .problem", { timeout: WAIT_MS });
    await stale.waitForSelector('#undo:not([data-state="asked"])', { timeout: WAIT_MS });
    const refusedAnswer = { ...(await stale.locator("#problems .problem").evaluate((element) => ({
      reason: element.dataset.reason, text: element.innerText }))), panel: await panel(stale), asked: staleAsked };
    await spectator.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) === v,
      (await pageState(first)).version, { timeout: WAIT_MS });
    return { match: id, move, beforeAny, afterMove, asked, undone, refused, withdrawn, refusedAnswer, accessibility,
      log: await spectator.locator("#move-log li").allInnerTexts(),
      spectatorButtons: await spectator.locator("#undo button").count() };
  },

  /**
   * A match created under a rules version this host lacks (--match) beside one it can play (--other): the lobby
   * labels the first with nothing to open or join, and its page explains instead of drawing a board.
   */
  async rulesUnavailable(browser) {
    const page = await newPage(browser);
    await page.goto(`${target}/#/?token=${args.token}`);  // signed in as a player of that match
    await page.waitForSelector('#sign-in-bar[data-state="signed-in"]', { timeout: WAIT_MS });
    await page.waitForSelector("#your-turn[data-count]", { timeout: WAIT_MS });
    await page.waitForSelector(`#my-matches tr[data-match="${args.match}"]`, { timeout: WAIT_MS });
    const yourTurn = { count: await page.locator("#your-turn").getAttribute("data-count"),
      items: await page.locator("#your-turn-list li").evaluateAll((items) => items.map((item) => item.dataset.match)) };
    const row = (id, where = "#matches") => page.locator(`${where} tr[data-match="${id}"]`).evaluate((element) => ({
      text: element.innerText, version: element.dataset.rulesUnavailable ?? null,
      links: Array.from(element.querySelectorAll("a"), (link) => link.getAttribute("href")),
      buttons: Array.from(element.querySelectorAll("button"), (button) => button.textContent) }));
    await page.waitForSelector(`#matches tr[data-match="${args.match}"]`, { timeout: WAIT_MS });
    await page.waitForSelector(`#matches tr[data-match="${args.other}"]`, { timeout: WAIT_MS });
    const lobby = { unavailable: await row(args.match), playable: await row(args.other) };
    const mine = await row(args.match, "#my-matches");
    await screenshot(page, "lobby-rules-unavailable");
    await openMatch(page, target, args.match);
    await page.waitForSelector("#rules-unavailable", { timeout: WAIT_MS });
    await screenshot(page, "rules-unavailable");
    const notice = await page.locator("#rules-unavailable").evaluate((element) => ({ text: element.innerText,
      version: element.dataset.rulesVersion, served: element.dataset.servedVersions }));
    const shown = await page.evaluate(() => ({
      failed: document.querySelector(".match-page").dataset.failed,
      rulesUnavailable: document.querySelector(".match-page").dataset.rulesUnavailable,
      boardShown: document.querySelector(".match-body").getBoundingClientRect().height > 0,
      problems: document.querySelectorAll("#problems .problem").length,
      connection: document.querySelector("#connection").textContent,
      replayLink: !document.querySelector("#replay-link").hidden }));
    return { lobby, yourTurn, mine, notice, shown, accessibility: await axeViolations(page) };
  },

  /**
   * "Find a match" in the lobby: an anonymous visitor is told to sign in; two signed-in players (--token,
   * --other-token) queue for --game in two browsers and land on the same match, seated, and each moves once.
   * Then the first: queues for 3 s, and nobody comes; queues again, reloads (the lobby picks the queued
   * ticket up again), loses the network and gets it back (the ticket is followed again), and cancels; queues
   * accepting bots at once, and lands on a match with a bot.
   */
  async queue(browser) {
    const visitor = await newPage(browser);
    await openLobby(visitor, target);
    await visitor.waitForSelector('#find-match[data-state="anonymous"]', { timeout: WAIT_MS });
    const anonymous = await findMatchPanel(visitor);

    const first = await signedInLobby(browser, args.token);
    const second = await signedInLobby(browser, args["other-token"]);
    const firstTicket = await queueFor(first, { game: args.game, seats: 2 });
    // The wait is counted live.
    await first.waitForFunction(() => document.querySelector("#ticket .ticket-waited")?.textContent !== "0:00",
      null, { timeout: WAIT_MS });
    const waiting = await ticketShown(first);
    if (args.out) await first.screenshot({ path: `${args.out}/lobby-find-match.png`, fullPage: true });
    const accessibility = await axeViolations(first);
    await queueFor(second, { game: args.game, seats: 2, waitQueued: false });
    const [firstMatch, secondMatch] = await Promise.all([first, second].map(landOnMatch));
    const seated = { first: await pageState(first), second: await pageState(second) };
    const [mover, other] = seated.first.toMove.includes(seated.first.seat) ? [first, second] : [second, first];
    const moves = [...await playToEnd(mover, seededRandom(7), { maxMoves: 1 }),
      ...await playToEnd(other, seededRandom(8), { maxMoves: 1 })];
    await mover.waitForFunction((v) => Number(document.querySelector(".match-page").dataset.version) >= v,
      moves[1].version + 1, { timeout: WAIT_MS });

    // Nobody else queues: the ticket expires, and the player is told to queue again.
    await first.locator('a[href="#/"]').first().click();
    const expiring = await queueFor(first, { game: args.game, seats: 2, ttlMinutes: 0.05 });
    await first.waitForSelector(`#ticket[data-state="expired"][data-ticket="${expiring}"]`, { timeout: WAIT_MS });
    const expired = { ...(await ticketShown(first)), ticket: expiring,
      formShown: await first.locator("#find-match form").isVisible() };

    // Queued again, the lobby reloaded follows the same ticket, and follows it again after a network loss;
    // Cancel takes it out of the queue.
    const again = await queueFor(first, { game: args.game, seats: 2 });
    await first.addInitScript(dropsTicketStreams);
    await first.reload();
    await first.waitForSelector(`#ticket[data-state="queued"][data-ticket="${again}"][data-connection="live"]`,
      { timeout: WAIT_MS });
    const formHiddenWhileQueued = await first.locator("#find-match form").isHidden();
    const dropped = await first.evaluate(() => window.dropTicketStreams());
    await first.waitForSelector('#ticket[data-connection="reconnecting"]', { timeout: WAIT_MS });
    await first.waitForSelector(`#ticket[data-state="queued"][data-connection="live"]`, { timeout: WAIT_MS });
    const reconnected = await first.evaluate(() => window.ticketStreams);
    await first.locator("#cancel-ticket").click({ timeout: CLICK_MS });
    await first.waitForSelector(`#ticket[data-state="cancelled"][data-ticket="${again}"]`, { timeout: WAIT_MS });
    const cancelled = { ...(await ticketShown(first)), formShown: await first.locator("#find-match form").isVisible(),
      formHiddenWhileQueued, ticket: again, dropped, reconnected };

    // Bots accepted at once: a match with a bot straight away.
    await queueFor(first, { game: args.game, seats: 2, botWait: 0, waitQueued: false });
    const botMatch = await landOnMatch(first);
    return { anonymous, waiting, accessibility, ticket: firstTicket, matches: [firstMatch, secondMatch], seated,
      moves, expired, cancelled, botMatch, botSeat: (await pageState(first)).seat };
  },

  /**
   * A party of two for a --seats player match of --game: the first player (--token) starts it and copies its
   * link; a visitor opening the link anonymously is told to sign in first; a third player (--newcomer-token),
   * who holds as many queued tickets as the host allows, is refused a place; a friend (--other-token) opens
   * the link signed in and joins: both see "2 of 2 queued" live; a player queuing alone (--filler-token)
   * completes the match, and all three land on it. The third player joining afterwards is told the party
   * is gone.
   */
  async party(browser) {
    const seats = Number(args.seats);
    const starter = await signedInLobby(browser, args.token);
    const ticket = await queueFor(starter, { game: args.game, seats, partySize: 2 });
    await starter.waitForSelector("#party-link", { timeout: WAIT_MS });
    const started = { ...(await ticketShown(starter)),
      link: await starter.locator("#party-link").getAttribute("href"),
      queued: await starter.locator("#ticket .party-queued").innerText(),
      button: await starter.locator("#copy-party-link").innerText() };

    const visitor = await newPage(browser);
    await visitor.goto(started.link);
    await visitor.waitForSelector('#find-match[data-state="anonymous"]', { timeout: WAIT_MS });
    const anonymous = await findMatchPanel(visitor);

    const late = await signedInLobby(browser, args["newcomer-token"]);
    await late.goto(started.link);
    const refusal = () => late.locator("#party-invitation .problem").evaluate((panel) => ({
      reason: panel.dataset.reason, code: panel.dataset.code, advice: panel.querySelector(".problem-advice").innerText,
      address: window.location.hash }));
    await late.locator("#join-party").click({ timeout: CLICK_MS });
    await late.waitForSelector("#party-invitation .problem", { timeout: WAIT_MS });
    const limited = { ...(await refusal()), ticketShown: await late.locator("#ticket").getAttribute("data-state") };

    const friend = await signedInLobby(browser, args["other-token"]);
    await friend.goto(started.link);
    const join = friend.locator("#join-party");
    await join.waitFor({ timeout: WAIT_MS });
    const invitation = await friend.locator("#party-invitation").innerText();
    await join.click({ timeout: CLICK_MS });
    // The whole party waits for one more player: both tickets say so, the starter's without a reload.
    const bothQueued = (page) => page.waitForFunction(() => document.querySelector("#ticket .party-queued")
      ?.textContent === "2 of 2 queued", null, { timeout: WAIT_MS });
    await Promise.all([bothQueued(starter), bothQueued(friend)]);
    const gathered = { starter: await ticketShown(starter), friend: await ticketShown(friend),
      friendAddress: friend.url(), invitationShown: await friend.locator("#party-invitation").isVisible() };
    if (args.out) await starter.screenshot({ path: `${args.out}/lobby-party.png`, fullPage: true });

    const filler = await signedInLobby(browser, args["filler-token"]);
    await queueFor(filler, { game: args.game, seats, waitQueued: false });
    const matches = await Promise.all([starter, friend, filler].map(landOnMatch));
    const seated = await Promise.all([starter, friend, filler].map(pageState));

    await late.locator("#join-party").click({ timeout: CLICK_MS });
    await late.waitForFunction(() => document.querySelector("#party-invitation .problem")?.dataset.reason
      === "PARTY_NOT_FOUND", null, { timeout: WAIT_MS });
    return { ticket, started, anonymous, invitation, gathered, matches, seated, limited, refused: await refusal() };
  },
};

/**
 * A network failure in the middle of WatchTicket streams, in the page: its fetch keeps a handle on each
 * stream, and `window.dropTicketStreams()` fails the open ones as a lost connection does. Headless
 * chromium's offline mode leaves open connections to 127.0.0.1 running, so it cannot do this.
 */
function dropsTicketStreams() {
  const fetchFromHost = window.fetch.bind(window);
  const open = new Set();
  window.ticketStreams = 0;
  window.fetch = (input, init = {}) => {
    if (!String(input.url ?? input).endsWith("/WatchTicket")) return fetchFromHost(input, init);
    window.ticketStreams += 1;
    const connection = new AbortController();
    init.signal?.addEventListener("abort", () => connection.abort(init.signal.reason), { once: true });
    open.add(connection);
    return fetchFromHost(input, { ...init, signal: connection.signal });
  };
  window.dropTicketStreams = () => {
    const count = open.size;
    open.forEach((connection) => connection.abort(new TypeError("network error")));
    open.clear();
    return count;
  };
}

/** A lobby signed in with `token` (taken from the address, as an embedding frontend passes it). */
async function signedInLobby(browser, token) {
  const page = await newPage(browser);
  await page.goto(`${target}/#/?token=${token}`);
  await page.waitForSelector('#sign-in-bar[data-state="signed-in"]', { timeout: WAIT_MS });
  await page.waitForSelector('#find-match[data-state="ready"]', { state: "attached", timeout: WAIT_MS });
  return page;
}

/** Fills "Find a match" and queues; resolves to the ticket's id once shown queued (null when told not to wait). */
async function queueFor(page, { game, seats, partySize = 0, botWait, ttlMinutes, waitQueued = true }) {
  const form = page.locator("#find-match form");
  await form.waitFor({ timeout: WAIT_MS });
  await form.locator('select[name="game"]').selectOption(`games/${game}`);
  await form.locator('select[name="seats"]').selectOption(String(seats));
  await form.locator('select[name="party-size"]').selectOption(String(partySize));
  await form.locator('input[name="accept-bots"]').setChecked(botWait !== undefined);
  if (botWait !== undefined) await form.locator('input[name="bot-wait"]').fill(String(botWait));
  await form.locator('input[name="ttl"]').fill(String(ttlMinutes ?? 5));
  await form.locator("#queue").click({ timeout: CLICK_MS });
  // A ticket that completes a group is matched in the host's answer: the page may be gone at once.
  if (!waitQueued) return null;
  await page.waitForSelector('#ticket[data-state="queued"]', { timeout: WAIT_MS });
  return page.locator("#ticket").getAttribute("data-ticket");
}

/** Waits until the page went to a match page by itself and shows its first view; resolves to the match id. */
async function landOnMatch(page) {
  await page.waitForFunction(() => /^#\/matches\/[^/?]+$/.test(window.location.hash), null, { timeout: WAIT_MS });
  await page.waitForSelector(".match-page[data-version]", { timeout: WAIT_MS });
  return new URL(page.url()).hash.split("/").pop();
}

function ticketShown(page) {
  return page.locator("#ticket").evaluate((ticket) => ({ ...ticket.dataset, text: ticket.innerText }));
}

function findMatchPanel(page) {
  return page.locator("#find-match").evaluate((panel) => ({ text: panel.innerText, state: panel.dataset.state,
    controls: panel.querySelectorAll("button, input, select, textarea, a").length }));
}

// A busy machine runs at half speed: clicks wait for their target up to 10 s, a page's change up to 30 s.
const CLICK_MS = 10000;
const WAIT_MS = 30000;

const VIEWPORTS = { desktop: { viewport: { width: 1280, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };
const AXE = fileURLToPath(import.meta.resolve("axe-core/axe.min.js"));

/** axe-core's violations on the page as it is, once its transitions (fade-ins) are over: colours are measured. */
async function axeViolations(page) {
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
    .map((animation) => animation.finished.catch(() => undefined))));
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations
    .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")) })));
}

/** With --out, a picture of the page for the CI artifacts (people look at them; no test reads them). */
async function screenshot(page, name) {
  if (!args.out) return;
  mkdirSync(args.out, { recursive: true });
  await page.screenshot({ path: `${args.out}/${name}.png`, fullPage: true });
}

function boardTextsOf(page, selector) {
  return page.evaluate((where) => Array.from(document.querySelectorAll(`${where} svg text`), (text) => text.textContent),
    selector);
}

async function newPage(browser, options = VIEWPORTS.desktop) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return page;
}

const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
/** Tells the test where the scenario is and waits for its go-ahead line. */
async function step(report) {
  console.log(JSON.stringify(report));
  await lines.next();
}

function range(first, last) {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

const scenario = scenarios[scenarioName];
if (!scenario || !target) {
  console.error(`usage: run.mjs <${Object.keys(scenarios).join("|")}> --target <web url> [--option value ...]`);
  process.exit(2);
}
const browser = await launchBrowser();
try {
  console.log(JSON.stringify(await scenario(browser)));
} finally {
  await browser.close();
  input.close();
}
