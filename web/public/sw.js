/* global self, caches */
/*
 * The vault's service worker: the app shell offline, nothing else.
 *
 * It caches only what is the same for everyone: index.html (the shell, kept under '/'), the
 * built files under /assets/ (hashed names, never changed), the manifest and the icons. Every
 * path the server answers itself (/api/, /media/, federation) passes straight through to the
 * network and is never stored, so nothing of a signed-in user stays behind after sign-out.
 *
 * - A page (a navigation) comes from the network first; the shell from the cache when the
 *   network fails or takes longer than NAVIGATION_TIMEOUT_MS. The client then shows that it is
 *   offline.
 * - A file under /assets/ comes from the cache first, else the network (and is cached).
 * - A new build (index.html naming other entry files) replaces the cached files of the old one.
 * - Installing fetches the shell, its entry files and every screen's file the entry names, so
 *   the whole client opens offline, not only the screens visited while online.
 *
 * Served by the vault as /sw.js with `Cache-Control: no-cache` (src/http/static-client.ts), so a
 * changed worker is picked up at the next visit.
 */
const VERSION = 'v1';
const SHELL_CACHE = `vault-shell-${VERSION}`;
const ASSET_CACHE = `vault-assets-${VERSION}`;
const SHELL_KEY = '/';
const STATIC_FILES = [
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/icon-maskable-512.png',
  '/icons/apple-touch-icon-180.png',
];
/** The paths the server answers itself (src/http/server-paths.ts), and the worker itself. */
const PASS_THROUGH = [
  '/api/',
  '/media/',
  '/.well-known/',
  '/nodeinfo/',
  '/inbox',
  '/ns/',
  '/sw.js',
];
const NAVIGATION_TIMEOUT_MS = 5000;
/** At most this many files are fetched ahead when the worker installs. */
const WARM_LIMIT = 300;

const passesThrough = (path) => PASS_THROUGH.some((prefix) => path.startsWith(prefix));

/** The /assets/ files index.html loads first (scripts, preloads, stylesheets). */
function entryFiles(html) {
  const files = new Set();
  for (const match of html.matchAll(/(?:src|href)=["'](\/assets\/[^"']+)["']/g)) {
    files.add(match[1]);
  }
  return [...files];
}

/** The /assets/ files a built script or stylesheet names (the screens it loads on demand). */
function namedFiles(text) {
  const files = new Set();
  for (const match of text.matchAll(/["'`(](?:\/?assets\/|\.\/)([\w.-]+\.(?:js|css))["'`)]/g)) {
    files.add(`/assets/${match[1]}`);
  }
  return [...files];
}

async function cacheFile(cache, path) {
  const response = await fetch(path, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  await cache.put(path, response.clone());
  return response;
}

/**
 * `cacheFile`, tried once more after a failure: a busy server or a flaky link may drop one of
 * the many requests of a warm-up, and a file skipped here is missing offline until the next build.
 */
async function cacheFileOrRetry(cache, path) {
  try {
    return await cacheFile(cache, path);
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return cacheFile(cache, path);
  }
}

/** Caches the entry files, then (best effort) every file they name, breadth first. */
async function warmAssets(entries) {
  const cache = await caches.open(ASSET_CACHE);
  const seen = new Set(entries);
  const queue = [...entries];
  while (queue.length > 0 && seen.size <= WARM_LIMIT) {
    const path = queue.shift();
    try {
      const cached = await cache.match(path);
      const response = cached ?? (await cacheFileOrRetry(cache, path));
      if (!/\.(js|css)$/.test(path)) continue;
      for (const named of namedFiles(await response.text())) {
        if (!seen.has(named)) {
          seen.add(named);
          queue.push(named);
        }
      }
    } catch {
      // A file missing (a newer build swapped in): it is fetched when a screen asks for it.
    }
  }
}

/** Keeps `response` as the shell; a new build's shell drops the old build's files. */
async function keepShell(response) {
  const html = await response.clone().text();
  const shell = await caches.open(SHELL_CACHE);
  const previous = await shell.match(SHELL_KEY);
  const previousEntries = previous ? entryFiles(await previous.text()) : [];
  const entries = entryFiles(html);
  await shell.put(SHELL_KEY, response);
  const sameBuild =
    previousEntries.length === entries.length && entries.every((f) => previousEntries.includes(f));
  if (sameBuild) return;
  const assets = await caches.open(ASSET_CACHE);
  for (const request of await assets.keys()) {
    if (!entries.includes(new URL(request.url).pathname)) await assets.delete(request);
  }
  await warmAssets(entries);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch(SHELL_KEY, { cache: 'no-cache' });
      if (!response.ok) throw new Error(`The shell answered ${response.status}`);
      const statics = await caches.open(SHELL_CACHE);
      await Promise.all(STATIC_FILES.map((path) => cacheFile(statics, path).catch(() => null)));
      await keepShell(response);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = [SHELL_CACHE, ASSET_CACHE];
      for (const name of await caches.keys()) {
        if (!keep.includes(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The network, or a rejection after `ms` (a phone on one bar of signal is offline too). */
function fetchWithin(request, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    fetch(request).then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

async function page(event) {
  try {
    const response = await fetchWithin(event.request, NAVIGATION_TIMEOUT_MS);
    const type = response.headers.get('Content-Type') ?? '';
    if (response.ok && !response.redirected && type.startsWith('text/html')) {
      event.waitUntil(keepShell(response.clone()).catch(() => undefined));
    }
    return response;
  } catch {
    const shell = await caches.match(SHELL_KEY, { cacheName: SHELL_CACHE });
    return (
      shell ??
      new Response('You are offline, and the vault has not been saved on this device yet.', {
        status: 503,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      })
    );
  }
}

async function asset(request, path) {
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(path);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(path, response.clone());
  return response;
}

async function staticFile(request, path) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(path, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(path);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || passesThrough(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(asset(request, url.pathname));
  } else if (STATIC_FILES.includes(url.pathname)) {
    event.respondWith(staticFile(request, url.pathname));
  }
});
