// The page's service worker: shows the host's push alerts ("your turn",
// "match over") with the tab closed, and opens the match when one is clicked.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: "gamehost", body: event.data ? event.data.text() : "" };
  }
  const url = new URL(message.url || "./", self.registration.scope).href;
  const shown = self.registration.showNotification(message.title || "gamehost", {
    body: message.body || "", tag: message.match || "gamehost", data: { url },
  }).then(() => true, () => false);
  // Open pages hear of it too (they may refresh what they show).
  event.waitUntil(shown.then((ok) => self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(
    (windows) => windows.forEach((client) => client.postMessage({ type: "gamehost:push", push: { ...message, url }, shown: ok })))));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((windows) => {
    const open = windows.find((client) => client.url === url);
    return open ? open.focus() : self.clients.openWindow(url || self.registration.scope);
  }));
});
