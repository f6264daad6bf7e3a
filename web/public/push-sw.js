/*
 * Limelight's Web Push worker, served from the site root so that its scope is every page of every skin.
 * The server sends a JSON payload {title, body, url, icon?, tag?}; the notification opens `url`
 * (a path of the site), focusing a tab already on it.
 */
self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The payload as the server sends it; a bare text is the body. */
function readPayload(data) {
  if (!data) return {};
  try {
    const json = data.json();
    return json && typeof json === 'object' ? json : {};
  } catch {
    return { body: data.text() };
  }
}

/** Only pages of this site are opened: anything else leads to its home page. */
function sameOriginUrl(url) {
  try {
    const target = new URL(typeof url === 'string' && url ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL('/', self.location.origin).href;
  } catch {
    return new URL('/', self.location.origin).href;
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'New notification';
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: typeof payload.icon === 'string' && payload.icon ? payload.icon : '/favicon.svg',
    data: { url: sameOriginUrl(payload.url) },
  };
  if (typeof payload.tag === 'string' && payload.tag) options.tag = payload.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url && 'focus' in client);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    }),
  );
});
