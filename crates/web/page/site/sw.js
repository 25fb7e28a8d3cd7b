// The static site's service worker: keeps every file of one version of the site, so that after
// one visit the site opens and plays without the network. `cargo xtask site` writes the version
// and the list of files in. A new version is installed beside the old one and waits until the
// page asks for it (the page announces it); then the old version's files are deleted.
//
// It also makes the pages it serves cross-origin isolated (the headers below, which a plain
// static host does not send), so that the engine can share memory between workers and search
// on several threads: from the second visit on, once this worker serves the pages. Every file
// is the site's own, so the isolation refuses nothing the site loads.

const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `xiangqi-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('xiangqi-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

/** What makes a page cross-origin isolated. */
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** `response` with the isolation headers added (an opaque one, from elsewhere, as it is). */
function isolated(response) {
  if (response.type === 'opaque' || response.type === 'opaqueredirect') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A page's query (?lang=en) does not make it another file.
    const hit = await cache.match(event.request, { ignoreSearch: true });
    return isolated(hit || await fetch(event.request));
  })());
});
