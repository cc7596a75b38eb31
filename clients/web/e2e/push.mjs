#!/usr/bin/env node
// A signed-in player turns alerts on in the page, and a push from the host
// reaches the page's service worker, which shows it. Chromium's own push
// service is out of reach here, so the test's push service stands in for it:
// the browser's PushManager hands out that service's endpoint and keys (the
// test's, given here), the host encrypts and signs for them, the service
// checks and decrypts as the browser would and hands the message over at
// --relay; this script delivers it to the service worker through the
// DevTools protocol, as the browser's push client would.
//
//   node clients/web/e2e/push.mjs --target <web url> --token <bearer> --endpoint <url> --p256dh <b64u>
//     --auth <b64u> --relay <url>
// Prints {"step": "subscribed"} once the host keeps the subscription, then the result on the last line.
import { parseArgs } from "node:util";
import { launchBrowser } from "./browser.mjs";

const WAIT_MS = 30000;
const { values: args } = parseArgs({ options: Object.fromEntries(
  ["target", "token", "endpoint", "p256dh", "auth", "relay"].map((name) => [name, { type: "string" }])) });

/** The browser's push client as the test's push service: subscribe() gives its endpoint and keys. */
function standInPushService({ endpoint, p256dh, auth }) {
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") +
    "=".repeat((4 - (text.length % 4)) % 4)), (char) => char.charCodeAt(0)).buffer;
  let current = null;
  const subscription = (options) => ({
    endpoint, expirationTime: null, options,
    getKey: (name) => bytes(name === "p256dh" ? p256dh : auth),
    toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
    unsubscribe: async () => { current = null; return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    window.subscribedWith = { userVisibleOnly: options.userVisibleOnly,
      applicationServerKey: btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)))
        .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") };
    current = subscription(options);
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
}

async function relayed(url) {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const answer = await fetch(url);
    if (answer.status === 200) return answer.text();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing reached the push service at ${url}`);
}

const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(["notifications"], { origin: args.target });
  await context.addInitScript(standInPushService, { endpoint: args.endpoint, p256dh: args.p256dh, auth: args.auth });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  const cdp = await context.newCDPSession(page);
  const registrations = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: updated }) => registrations.push(...updated));
  await cdp.send("ServiceWorker.enable");
  await page.goto(`${args.target}/#/?token=${args.token}`);
  await page.waitForSelector('#sign-in-bar[data-state="signed-in"]', { timeout: WAIT_MS });
  await page.evaluate(() => {
    window.pushes = [];
    window.addEventListener("gamehost:push", (event) => window.pushes.push(event.detail));
  });
  const toggle = page.locator("#push-alerts");
  await toggle.waitFor({ state: "visible", timeout: WAIT_MS });
  const before = { label: await toggle.innerText(), state: await toggle.getAttribute("data-state") };
  await toggle.click();
  await page.waitForSelector('#push-alerts[data-state="on"]', { timeout: WAIT_MS });
  const after = { label: await toggle.innerText(), title: await toggle.getAttribute("title") };
  const subscribedWith = await page.evaluate(() => window.subscribedWith);
  console.log(JSON.stringify({ step: "subscribed" }));

  const data = await relayed(args.relay);
  await page.evaluate(() => navigator.serviceWorker.ready);  // active: a push can be delivered to it
  const registration = registrations.find((entry) => !entry.isDeleted && entry.scopeURL.startsWith(args.target));
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(args.target).origin,
    registrationId: registration.registrationId, data });
  await page.waitForFunction(() => window.pushes.length > 0, null, { timeout: WAIT_MS });
  const shown = await page.evaluate(() => window.pushes[0]);
  const notifications = await page.evaluate(async () => (await (await navigator.serviceWorker.ready)
    .getNotifications()).map((note) => ({ title: note.title, body: note.body, tag: note.tag })));
  console.log(JSON.stringify({ before, after, subscribedWith, shown, notifications }));
} finally {
  await browser.close();
}
