#!/usr/bin/env node
// The admin console in a real browser: tests/test_admin_console.py runs
// `node clients/web/e2e/admin-console.mjs --target <web url> --admin-token T --player-token T
//  --suspended <match id> --resume <match id> --delivery <key> --subject <user> --pool <pool key>
//  --erase-subject <user>` and checks the host afterwards.
//
// A player (no admin role) sees no console link, and #/admin tells them why. The admin opens the console from
// the header: another suspended match is resumed after its confirmation; the suspended match is listed with its strikes and its failing plugin; Abort asks first (Cancel
// changes nothing), then aborts it; the given-up delivery is retried after its confirmation; the plugins list
// names the ones skipped with their errors; the pool shows its queued ticket; the subject is looked up (their matches, their ratings).
// Another user is looked up, banned with a reason and unbanned, their data exported (the file the browser saves)
// and deleted, each change after its confirmation.
// Prints one JSON line of what the pages showed.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";

const { values: args } = parseArgs({ options: {
  target: { type: "string" }, "admin-token": { type: "string" }, "player-token": { type: "string" },
  suspended: { type: "string" }, delivery: { type: "string" }, subject: { type: "string" }, pool: { type: "string" },
  resume: { type: "string" }, "erase-subject": { type: "string" },
} });
for (const name of ["target", "admin-token", "player-token", "suspended", "delivery", "subject", "pool", "resume",
  "erase-subject"]) {
  if (!args[name]) {
    console.error(`usage: admin-console.mjs --${name} is required`);
    process.exit(2);
  }
}
const { target } = args;
const WAIT = { timeout: 60_000 };

async function signedIn(browser, token) {
  const page = await (await browser.newContext()).newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${target}/#/?token=${token}`);
  await page.waitForSelector("#sign-in-bar[data-state=signed-in]", WAIT);
  return page;
}

/** Clicks `button`, answers the confirmation dialog, and returns the question it asked. */
async function confirmed(page, button, answer) {
  await page.click(button);
  const dialog = await page.waitForSelector("dialog.admin-confirm[open]", WAIT);
  const question = await dialog.$eval("#admin-confirm-question", (element) => element.textContent);
  await page.click(answer === "confirm" ? "dialog.admin-confirm .admin-confirm-ok" : "dialog.admin-confirm .admin-confirm-cancel");
  await page.waitForSelector("dialog.admin-confirm", { state: "detached", ...WAIT });
  return question;
}

const browser = await launchBrowser();
const shown = {};
try {
  // A player: no link in the header, and the route refuses with a sentence.
  const player = await signedIn(browser, args["player-token"]);
  shown.playerLink = await player.$("#admin-console-link") !== null;
  await player.goto(`${target}/#/admin`);
  await player.waitForSelector("#admin-console[data-state=refused]", WAIT);
  shown.playerRefusal = await player.textContent("#admin-console");
  shown.playerLinkOnConsole = await player.$("#admin-console-link") !== null;

  // The admin: the header's link opens the console.
  const admin = await signedIn(browser, args["admin-token"]);
  await admin.click("#admin-console-link", WAIT);
  await admin.waitForSelector("#admin-console[data-state=loaded]", WAIT);
  shown.hash = await admin.evaluate(() => window.location.hash);

  const resumed = `#admin-matches tr[data-match="${args.resume}"]`;
  await admin.waitForSelector(resumed, WAIT);
  shown.resumeQuestion = await confirmed(admin, `${resumed} .admin-resume`, "confirm");

  const row = `#admin-matches tr[data-match="${args.suspended}"]`;
  await admin.waitForSelector(row, WAIT);
  shown.suspendedRow = await admin.$eval(row, (element) => ({
    status: element.dataset.status, strikes: element.querySelector(".admin-strikes").textContent,
    why: element.querySelector(".admin-why").textContent,
    actions: Array.from(element.querySelectorAll(".admin-actions button"), (button) => button.className),
    above: Array.from(element.parentElement.children).slice(0, Array.from(element.parentElement.children)
      .indexOf(element)).map((other) => other.dataset.status),
  }));
  shown.abortCancelled = await confirmed(admin, `${row} .admin-abort`, "cancel");
  shown.rowAfterCancel = await admin.$(row) !== null;
  shown.abortQuestion = await confirmed(admin, `${row} .admin-abort`, "confirm");
  await admin.waitForSelector(row, { state: "detached", ...WAIT });  // the listing is read again: it is over

  const delivery = `#admin-deliveries tr[data-delivery="${args.delivery}"]`;
  await admin.waitForSelector(`${delivery}[data-state=failed]`, WAIT);
  shown.retryQuestion = await confirmed(admin, `${delivery} .admin-retry`, "confirm");
  await admin.waitForSelector(`${delivery}:not([data-state=failed])`, WAIT);
  shown.deliveryAfterRetry = await admin.$eval(delivery, (element) => element.dataset.state);

  const pool = `#admin-pools tr[data-pool="${args.pool}"]`;
  await admin.waitForSelector(pool, WAIT);
  shown.pool = await admin.$eval(pool, (element) => ({ queued: element.dataset.queued,
    game: element.firstElementChild.textContent }));

  await admin.waitForSelector("#admin-plugins .admin-body[data-state=loaded]", WAIT);
  shown.plugins = await admin.$$eval("#admin-plugins tr[data-plugin]", (rows) => rows.map((element) => ({
    name: element.dataset.plugin, state: element.dataset.state,
    errors: element.querySelector(".admin-plugin-errors").textContent })));

  await admin.fill("#admin-player-subject", args.subject);
  await admin.click("#admin-player-look-up");
  await admin.waitForSelector(`#admin-players .admin-body[data-state=loaded][data-subject="${args.subject}"]`, WAIT);
  shown.player = await admin.$eval("#admin-players .admin-body", (element) => ({
    matches: Array.from(element.querySelectorAll(".admin-player-matches li"), (item) => item.dataset.match),
    record: element.querySelector(".player-record").textContent,
    moderationSlot: element.querySelector(".admin-player-moderation")?.dataset.subject ?? null,
  }));

  const erased = args["erase-subject"];
  await admin.fill("#admin-player-subject", erased);
  await admin.click("#admin-player-look-up");
  await admin.waitForSelector(`#admin-players .admin-body[data-state=loaded][data-subject="${erased}"]`, WAIT);
  const note = "#admin-players .admin-player-note";
  await admin.fill("#admin-players .admin-ban-reason", "spam in every match");
  shown.banQuestion = await confirmed(admin, "#admin-players .admin-ban", "confirm");
  await admin.waitForFunction((selector) => document.querySelector(selector)?.textContent.includes("banned"), note, WAIT);
  shown.bannedNote = await admin.textContent(note);
  shown.unbanQuestion = await confirmed(admin, "#admin-players .admin-unban", "confirm");
  await admin.waitForFunction((selector) => document.querySelector(selector)?.textContent.includes("no longer"), note,
    WAIT);
  const [download] = await Promise.all([admin.waitForEvent("download", WAIT),
    admin.click("#admin-players .admin-export-data")]);
  shown.exportFile = download.suggestedFilename();
  shown.exported = JSON.parse(await readFile(await download.path(), "utf-8"));
  shown.deleteCancelled = await confirmed(admin, "#admin-players .admin-delete-data", "cancel");
  shown.deleteQuestion = await confirmed(admin, "#admin-players .admin-delete-data", "confirm");
  await admin.waitForSelector(`${note}[data-pseudonym]`, WAIT);
  shown.deletedNote = await admin.textContent(note);
  shown.pseudonym = await admin.$eval(note, (element) => element.dataset.pseudonym);

  // In French: the console's own words (headings, column names, buttons, notes, the header's link).
  await admin.evaluate(() => window.localStorage.setItem("gamehost.language", "fr"));
  await admin.reload();
  await admin.waitForSelector("#admin-console[data-state=loaded]", WAIT);
  for (const panel of ["matches", "pools", "deliveries", "plugins"]) {
    await admin.waitForSelector(`#admin-${panel} .admin-body[data-state=loaded]`, WAIT);
  }
  shown.french = await admin.evaluate(() => [
    ...Array.from(document.querySelectorAll("#admin-console-link, #admin-console h2, #admin-console h3, "
      + "#admin-console th, #admin-console button, #admin-console .muted, #admin-console .admin-strikes"),
    (element) => element.textContent),
    ...Array.from(document.querySelectorAll("#admin-console [aria-label]"), (element) => element.getAttribute("aria-label")),
  ].join("\n"));
} finally {
  await browser.close();
}
console.log(JSON.stringify(shown));
