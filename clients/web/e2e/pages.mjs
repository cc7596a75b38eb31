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
      legal: Array.from(document.querySelectorAll("#moves .legal-move"),
        (button) => ({ id: button.dataset.moveId, label: button.textContent })),
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
  (count) => Number(document.querySelector(".match-page")?.dataset.submits ?? 0) > count, before, { timeout: 3000 });

/**
 * Plays one legal move as a person would: a click on its board target when
 * the SVG has one, else on its button in the move list. Resolves to how it
 * was played ("svg" or "list") once the page shows a newer version; throws
 * with the page's error panel when the host refused the move.
 */
export async function playMove(page, moveId) {
  const { version, submits } = await pageState(page);
  const target = page.locator(`#board .move-target[data-move=${attribute(moveId)}]`).first();
  let via = "list";
  if (await target.count()) {
    via = "svg";
    // A label the plugin drew over the target takes the click: the page finds the target beneath it.
    await target.click({ timeout: 2000 }).catch(() => target.click({ force: true, timeout: 2000 }));
    if (!(await submitted(page, submits).then(() => true, () => false))) via = "list";
  }
  if (via === "list") {
    await page.locator(`#moves .legal-move[data-move-id=${attribute(moveId)}]`).click({ timeout: 5000 });
    await submitted(page, submits);
  }
  await page.waitForFunction((seen) => {
    const root = document.querySelector(".match-page");
    return Number(root?.dataset.version ?? -1) > seen || !root?.classList.contains("submitting")
      && document.querySelector("#problems .problem");
  }, version, { timeout: 30000 });
  const after = await pageState(page);
  if (after.version <= version && after.problem) throw new Error(`move ${moveId} refused: ${after.problem}`);
  return via;
}

/**
 * Plays random legal moves (chosen with `random`) until the match ends or
 * `maxMoves` were played; `afterMove(count)` runs after each move.
 */
export async function playToEnd(page, random, { afterMove, maxMoves = 2000 } = {}) {
  const played = [];
  while (played.length < maxMoves) {
    await waitForTurnOrEnd(page);
    const state = await pageState(page);
    if (state.status === "finished" || state.status === "abandoned") break;
    const move = state.legal[Math.floor(random() * state.legal.length)];
    const via = await playMove(page, move.id);
    played.push({ id: move.id, label: move.label, via, version: state.version });
    if (afterMove) await afterMove(played.length);
  }
  return played;
}

/** The texts a board SVG shows, in document order. */
export function boardTexts(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll("#board svg text"), (text) => text.textContent));
}
