/*
 * Hittad's service worker (issue #33, docs/decisions/034-push-notifications.md). It only
 * shows push notifications and opens the conversation when one is clicked. It has no
 * `fetch` handler on purpose: nothing is cached, so private pages never outlive a sign-out.
 */
self.addEventListener("install", () => {
  // A new version takes over at once: there is no cache to migrate.
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", (event) => {
  let data;
  try {
    data = (event.data && event.data.json()) || {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Hittad";
  const body = typeof data.body === "string" ? data.body : "";
  const url = sameOriginUrl(data.url) ?? new URL("/messages", self.location.origin).href;
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      lang: typeof data.lang === "string" ? data.lang : undefined,
      tag: typeof data.tag === "string" ? data.tag : undefined,
      icon: "/icons/icon-192.png",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  if (!url) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (w.url === url && "focus" in w) return w.focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});

/** Only our own pages are opened, whatever a payload says. */
function sameOriginUrl(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value, self.location.origin);
    return url.origin === self.location.origin ? url.href : null;
  } catch {
    return null;
  }
}
