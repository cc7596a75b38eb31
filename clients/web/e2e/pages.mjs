// Driving the web client as a person would: the lobby's forms, clicks on the
// board's data-move targets or on the move list. Used by the browser tests
// (run.mjs) and by script.mjs.

/** A small seeded generator (mulberry32), so a test run's choices can be repeated. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const attribute = (value) => JSON.stringify(String(value));

export async function openLobby(page, target) {
  await page.goto(`${target}/#/`);
  await page.waitForSelector("details.game");
}

/** Fills the lobby's "new match" form of `game` and submits it; resolves to the match id. */
export async function createMatch(page, target,
  { game, seats, bots, bot, seed, options = {}, variant, turnTimeout, takeSeat = true }) {
  await openLobby(page, target);
  const card = page.locator(`details.game[data-game=${attribute(game)}]`);
  if (!(await card.evaluate((details) => details.open))) await card.locator("summary").click();
  const form = card.locator("form.create-form");
  if (seats !== undefined) await form.locator('select[name="seats"]').selectOption(String(seats));
  if (bots !== undefined) {
    const boxes = form.locator(".seat-choices input[type=checkbox]");
    for (let seat = 0; seat < await boxes.count(); seat += 1) await boxes.nth(seat).setChecked(bots.includes(seat));
  }
  if (bot) await form.locator('select[name="bot"]').selectOption(bot);
  if (variant) await form.locator('select[name="variant"]').selectOption(variant);
  for (const [name, value] of Object.entries(options)) await fillOption(form, name, value);
  if (seed !== undefined) await form.locator('input[name="seed"]').fill(String(seed));
  if (turnTimeout !== undefined) await form.locator('input[name="turn-timeout"]').fill(String(turnTimeout));
  await form.locator('input[name="take-seat"]').setChecked(takeSeat);
  const before = page.url();
  await form.locator("button.create-match").click();
  await page.waitForFunction((url) => window.location.href !== url && /#\/matches\/[^/]+$/.test(window.location.hash),
    before, { timeout: 15000 });
  const id = new URL(page.url()).hash.split("/").pop();
  await page.waitForSelector(".match-page[data-version]");
  return id;
}

async function fillOption(form, name, value) {
  const input = form.locator(`[name=${attribute(`option:${name}`)}]`);
  const kind = await input.evaluate((element) => element.type || element.tagName.toLowerCase());
  if (kind === "checkbox") await input.setChecked(value === true);
  else if (kind.startsWith("select")) await input.selectOption({ label: String(value) });
  else if (kind === "textarea") await input.fill(JSON.stringify(value));
  else await input.fill(String(value));
}

/** Opens a match page and waits for its first view (or its error). */
export async function openMatch(page, target, id) {
  await page.goto(`${target}/#/matches/${id}`);
  await page.waitForSelector(".match-page[data-version], .match-page[data-failed]");
}

/** What the game page shows now, read from the DOM. */
export function pageState(page) {
  return page.evaluate(() => {
    const root = document.querySelector(".match-page");
    const data = root ? root.dataset : {};
    return {
      version: Number(data.version ?? -1), status: data.status ?? "", seat: Number(data.seat ?? -2),
      toMove: data.toMove ? data.toMove.split(",").map(Number) : [], connection: data.connection ?? "",
      submits: Number(data.submits ?? 0), failed: data.failed ?? "",
      legal: Array.from(document.querySelectorAll("#moves .legal-move"), (button) => ({ id: button.dataset.moveId,
        label: button.textContent, parts: button.dataset.parts ? button.dataset.parts.split(" ") : [] })),
      targets: Array.from(document.querySelectorAll("#board .move-target"), (element) => element.getAttribute("data-move")),
      problem: document.querySelector("#problems .problem")?.innerText ?? "",
    };
  });
}

/** Waits until this page may move (its move list is enabled) or the match is over. */
export async function waitForTurnOrEnd(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const root = document.querySelector(".match-page");
    if (!root) return false;
    if (["finished", "abandoned", "aborted"].includes(root.dataset.status)) return true;
    return !root.classList.contains("submitting")
      && document.querySelectorAll("#moves .legal-move:not([disabled])").length > 0;
  }, null, { timeout });
}

const submitted = (page, before) => page.waitForFunction(
  (count) => Number(document.querySelector(".match-page")?.dataset.submits ?? 0) > count, before, { timeout: 10000 });

// A busy machine may re-render the board while a click waits for its target
// to be stable: generous timeouts, then a forced click for a covered target.
const clickTarget = (target) => target.click({ timeout: 10000 }).catch(() => target.click({ force: true, timeout: 10000 }));

/**
 * Composes a move offered in parts by clicks on the board: for each part not
 * already taken (the page takes a part that is the only choice), a click on
 * its highlighted target. Resolves to the parts clicked; throws if a part has
 * no target on the board.
 */
export async function composeOnBoard(page, move) {
  const clicked = [];
  for (const [depth, part] of move.parts.entries()) {
    const chosen = ((await page.locator("#composer").getAttribute("data-chosen")) ?? "").split(" ");
    if (chosen[depth] === part) continue;
    const target = page.locator(`#board .part-choice[data-part=${attribute(part)}]`).first();
    if (!(await target.count())) {
      const choices = await page.locator("#board .part-choice").evaluateAll((all) => all.map((e) => e.dataset.part));
      throw new Error(`part ${part} of move ${move.id} has no target on the board (chosen: ${chosen.join(" ")}; `
        + `choices: ${choices.slice(0, 12).join(" ")})`);
    }
    const { submits } = await pageState(page);
    await clickTarget(target);
    clicked.push(part);
    // The page took the part (or, for the last one, submitted the move): a click that missed fails here.
    await page.waitForFunction(({ depth, part, submits }) =>
      (document.querySelector("#composer")?.dataset.chosen ?? "").split(" ")[depth] === part
        || Number(document.querySelector(".match-page")?.dataset.submits ?? 0) > submits,
    { depth, part, submits }, { timeout: 15000 }).catch(async () => {
      const now = await page.locator("#composer").getAttribute("data-chosen");
      throw new Error(`the click on part ${part} of move ${move.id} was not taken (chosen now: ${now})`);
    });
  }
  return clicked;
}

/**
 * Plays one legal move as a person would: its parts composed on the board,
 * or a click on its board target when the SVG has one, else on its button in
 * the move list (never with `boardOnly`: then a move the board cannot make
 * throws). Resolves to how it was played ("svg" or "list") and the board
 * clicks once the page shows a newer version; throws with the page's error
 * panel when the host refused the move.
 */
export async function playMove(page, moveId, { boardOnly = false } = {}) {
  const { version, submits, legal } = await pageState(page);
  const target = page.locator(`#board .move-target[data-move=${attribute(moveId)}]`).first();
  const parts = legal.find((move) => move.id === moveId)?.parts ?? [];
  let via = "list";
  let clicks = [];
  if (parts.length) {
    clicks = await composeOnBoard(page, { id: moveId, parts });
    via = "svg";
    await submitted(page, submits);
  } else if (await target.count()) {
    clicks = [moveId];
    via = "svg";
    // A label the plugin drew over the target takes the click: the page finds the target beneath it.
    await clickTarget(target);
    if (!(await submitted(page, submits).then(() => true, () => false))) via = "list";
  }
  if (via === "list" && boardOnly) throw new Error(`move ${moveId} cannot be played on the board`);
  if (via === "list") {
    await page.locator(`#moves .legal-move[data-move-id=${attribute(moveId)}]`).click({ timeout: 15000 });
    await submitted(page, submits);
  }
  await page.waitForFunction((seen) => {
    const root = document.querySelector(".match-page");
    return Number(root?.dataset.version ?? -1) > seen || !root?.classList.contains("submitting")
      && document.querySelector("#problems .problem");
  }, version, { timeout: 30000 });
  const after = await pageState(page);
  if (after.version <= version && after.problem) throw new Error(`move ${moveId} refused: ${after.problem}`);
  return boardOnly ? { via, clicks } : via;
}

/**
 * Plays random legal moves (chosen with `random`) until the match ends or
 * `maxMoves` were played; `afterMove(count)` runs after each move.
 */
export async function playToEnd(page, random, { beforeMove, afterMove, maxMoves = 2000, boardOnly = false } = {}) {
  const played = [];
  while (played.length < maxMoves) {
    await waitForTurnOrEnd(page);
    const state = await pageState(page);
    if (state.status === "finished" || state.status === "abandoned") break;
    const move = state.legal[Math.floor(random() * state.legal.length)];
    if (beforeMove) await beforeMove(move);
    if (boardOnly) {
      const { clicks } = await playMove(page, move.id, { boardOnly });
      played.push({ id: move.id, label: move.label, parts: move.parts, clicks, version: state.version });
    } else {
      played.push({ id: move.id, label: move.label, via: await playMove(page, move.id), version: state.version });
    }
    if (afterMove) await afterMove(played.length);
  }
  return played;
}

/** The texts a board SVG shows, in document order. */
export function boardTexts(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll("#board svg text"), (text) => text.textContent));
}
