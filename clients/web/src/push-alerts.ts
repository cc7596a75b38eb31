// "Alert me": Web Push for the signed-in player, so "your turn" and "match
// over" reach them with the tab closed. The browser subscribes at its push
// service with the host's VAPID key (GetPushKey); the host keeps the
// subscription for the signed-in user (SubscribePush) and sends the alerts;
// the service worker (public/push-worker.js) shows them.
import { Code, ConnectError } from "@connectrpc/connect";
import { gamehost } from "./api";
import { h } from "./elements";
import { problemOf } from "./errors";
import { requestLocale, tr } from "./i18n";

const WORKER = "./push-worker.js";

function base64url(bytes: ArrayBuffer | null): string {
  if (!bytes) return "";
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** The host's key, or "" when it sends no push (FAILED_PRECONDITION) or the browser cannot receive any. */
async function hostPushKey(): Promise<string> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "";
  try {
    return (await gamehost.getPushKey({})).applicationServerKey;
  } catch (error) {
    if (ConnectError.from(error).code === Code.FailedPrecondition) return "";
    throw error;
  }
}

/** The alerts switch for the signed-in bar: shown only where the host sends push and the browser takes it. */
export function pushAlertsSwitch(): HTMLElement {
  const button = h("button", { type: "button", id: "push-alerts", hidden: true }, tr("Alert me"));
  const show = (state: "off" | "on" | "refused", label: string, title = "") => {
    Object.assign(button.dataset, { state });
    button.textContent = label;
    button.title = title;
    button.hidden = false;
  };
  hostPushKey().then(async (key) => {
    if (!key) return;
    const registration = await navigator.serviceWorker.register(WORKER);
    const current = await registration.pushManager.getSubscription();
    if (current) show("on", tr("Alerts on"), tr("Your turns and results reach this browser with the tab closed."));
    else show("off", tr("Alert me"), tr("Be told of your turns and results with the tab closed."));
    button.onclick = async () => {
      button.disabled = true;
      try {
        if (button.dataset.state === "on") await unsubscribe(registration);
        else await subscribe(registration, key);
        const on = button.dataset.state !== "on";
        if (on) show("on", tr("Alerts on"), tr("Your turns and results reach this browser with the tab closed."));
        else show("off", tr("Alert me"), tr("Be told of your turns and results with the tab closed."));
      } catch (error) {
        const problem = problemOf(error);
        show("refused", tr("Alerts refused"), problem.message);
      } finally {
        button.disabled = false;
      }
    };
  }, () => { /* the host is unreachable: the bar says so already */ });
  return button;
}

async function subscribe(registration: ServiceWorkerRegistration, key: string): Promise<void> {
  if ((await Notification.requestPermission()) !== "granted") throw new Error(tr("The browser does not allow notifications for this page."));
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await gamehost.subscribePush({ endpoint: subscription.endpoint, p256dh: base64url(subscription.getKey("p256dh")),
    auth: base64url(subscription.getKey("auth")), locale: requestLocale() });
}

async function unsubscribe(registration: ServiceWorkerRegistration): Promise<void> {
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  try {
    await gamehost.unsubscribePush({ endpoint: subscription.endpoint });
  } catch (error) {
    if (ConnectError.from(error).code !== Code.NotFound) throw error;  // forgotten already: the browser's goes too
  }
  await subscription.unsubscribe();
}

/** Messages the service worker posts to open pages (a push shown), as "gamehost:push" events. */
export function relayPushMessages(): void {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data?.type === "gamehost:push") window.dispatchEvent(new CustomEvent("gamehost:push", { detail: event.data }));
  });
  navigator.serviceWorker.startMessages();  // a listener added this way waits for this call
}
