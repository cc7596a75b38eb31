#!/usr/bin/env node
// The chat panel in three browsers on one match (tests/test_web_chat.py):
// Ann and Bob, its signed-in players, and an admin watching. Ann and Bob
// talk (Bob's word is masked by the host's filter), Ann reports Bob's
// message and mutes him, the admin bans Bob, and Bob's next message is
// refused. Prints what each page showed, as JSON on its last line.
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";

const { values: args } = parseArgs({ options: Object.fromEntries(
  ["target", "match", "ann-token", "bob-token", "admin-token", "out"].map((name) => [name, { type: "string" }])) });
const { target, match } = args;

async function open(browser, token) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${target}/#/matches/${match}?token=${token}`);
  await page.waitForSelector(".match-page[data-version]");
  await page.waitForSelector("#chat .chat-form:not([hidden])");
  return page;
}

const texts = (page) => page.locator("#chat .chat-message .chat-text").allInnerTexts();
const lineOf = (page, text) => page.locator("#chat .chat-message", { hasText: text });

async function say(page, text) {
  await page.fill("#chat-input", text);
  await page.click("#chat-send");
}

const browser = await launchBrowser();
try {
  const ann = await open(browser, args["ann-token"]);
  const bob = await open(browser, args["bob-token"]);
  const moderator = await open(browser, args["admin-token"]);

  await say(ann, "hello bob");
  await lineOf(bob, "hello bob").waitFor();
  await say(bob, "you are a gremlin");
  await lineOf(ann, "you are a *******").waitFor();
  const annHeard = await texts(ann);

  await lineOf(ann, "you are a *******").locator(".chat-report").click();
  await ann.waitForSelector("#chat .chat-report[disabled]");
  const reportNote = await ann.locator("#chat-note").innerText();
  await lineOf(ann, "you are a *******").locator(".chat-mute").click();
  await ann.waitForFunction(() => !document.querySelector('#chat .chat-message[data-sender^="bob"]'));
  const muteNote = await ann.locator("#chat-note").innerText();

  await say(bob, "can you hear me?");
  await lineOf(moderator, "can you hear me?").waitFor();
  await say(ann, "quiet at last");
  await lineOf(moderator, "quiet at last").waitFor();
  await lineOf(ann, "quiet at last").waitFor();
  const annAfterMute = await texts(ann);
  const moderatorSaw = await texts(moderator);

  await lineOf(moderator, "can you hear me?").locator(".chat-ban").click();
  await moderator.waitForFunction(() => document.querySelector("#chat-note").textContent.includes("banned"));
  const banNote = await moderator.locator("#chat-note").innerText();
  await say(bob, "let me in");
  await bob.waitForFunction(() => document.querySelector("#chat-note").textContent.includes("banned"));
  const bobRefused = await bob.locator("#chat-note").innerText();
  if (args.out) await ann.screenshot({ path: `${args.out}/chat.png`, fullPage: true });

  console.log(JSON.stringify({ annHeard, reportNote, muteNote, annAfterMute, moderatorSaw, banNote, bobRefused,
    bobSaw: await texts(bob), adminButtons: await moderator.locator("#chat .chat-ban").count(),
    annAdminButtons: await ann.locator("#chat .chat-ban").count() }));
} finally {
  await browser.close();
}
