import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import { notFound } from '../domain-error.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
};

interface ClientFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  cacheControl: string;
}

/** How often the build folder is checked for a new build (npm run build while running). */
const RECHECK_MS = 1000;

/**
 * Serves the built client from web/dist, held in memory (it is small) and reloaded when a new
 * build replaces index.html. Hashed files under /assets are cached for a year. A path that
 * names a file (it has an extension) and matches none is a 404; every other GET gets
 * index.html, and the client routes it.
 */
export function staticClient(distDir: string): (c: Context) => Response {
  const root = path.resolve(distDir);
  const indexFile = path.join(root, 'index.html');
  let files = new Map<string, ClientFile>();
  let builtAt = -1;
  let checkedAt = 0;

  function current(): Map<string, ClientFile> {
    const now = Date.now();
    if (now - checkedAt < RECHECK_MS) return files;
    checkedAt = now;
    const mtime = mtimeOf(indexFile);
    if (mtime !== builtAt) {
      builtAt = mtime;
      files = mtime < 0 ? new Map() : loadBuild(root);
    }
    return files;
  }

  return (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') throw notFound('Not found.');
    const build = current();
    const index = build.get('/index.html');
    if (!index) return c.text('The vault client has not been built yet: run `npm run build`.', 503);
    const requested = c.req.path;
    const file = requested === '/index.html' ? undefined : build.get(requested);
    if (!file && /\.[A-Za-z0-9]+$/.test(requested)) throw notFound('Not found.');
    const { body, type, cacheControl } = file ?? index;
    const headers = { 'Content-Type': type, 'Cache-Control': cacheControl };
    return c.req.method === 'HEAD' ? c.body(null, 200, headers) : c.body(body, 200, headers);
  };
}

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/** Every file of a build, by its URL path. */
function loadBuild(root: string): Map<string, ClientFile> {
  const files = new Map<string, ClientFile>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = '/' + path.relative(root, file).split(path.sep).join('/');
    try {
      files.set(urlPath, {
        body: fs.readFileSync(file) as Uint8Array<ArrayBuffer>,
        type: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        cacheControl: urlPath.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      });
    } catch {
      // Removed while reading (a build being swapped in): the next check reloads.
    }
  }
  return files;
}
