import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import { notFound } from '../domain-error.ts';
import { chooseCoding, type ContentCoding } from './accept-encoding.ts';
import { requestHeader } from './node-fast-path.ts';

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
  /** The same body compressed at build time (web/precompress.ts), when the build has it. */
  encoded: Partial<Record<ContentCoding, Uint8Array<ArrayBuffer>>>;
  /** The codings `encoded` holds, best first. */
  codings: ContentCoding[];
  /** The source map of a script, named to browsers' developer tools when maps are served. */
  sourceMap?: string;
}

export interface StaticClientOptions {
  /** Serve /assets/*.map (and name each script's map in a SourceMap header); else 404. */
  serveSourceMaps: boolean;
}

/** How often the build folder is checked for a new build (npm run build while running). */
const RECHECK_MS = 1000;
const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];
const SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Serves the built client from web/dist, held in memory (it is small) and reloaded when a new
 * build replaces index.html. Hashed files under /assets are cached for a year. A path that
 * names a file (it has an extension) and matches none is a 404; every other GET gets
 * index.html, and the client routes it.
 *
 * A file the build also compressed is sent as Brotli or gzip, whichever the request's
 * Accept-Encoding accepts (Brotli first), else as it is, always with `Vary: Accept-Encoding`.
 * The .br and .gz files themselves have no URL. Source maps are a 404 unless
 * `serveSourceMaps` is on: the built scripts do not name them (Vite's hidden source maps).
 */
export function staticClient(
  distDir: string,
  options: StaticClientOptions = { serveSourceMaps: false },
): (c: Context) => Response {
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
      files = mtime < 0 ? new Map() : loadBuild(root, options);
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
    const served = file ?? index;
    const coding = chooseCoding(requestHeader(c, 'accept-encoding'), served.codings);
    const body = coding ? served.encoded[coding]! : served.body;
    const headers: Record<string, string> = {
      'Content-Type': served.type,
      'Content-Length': String(body.byteLength),
      'Cache-Control': served.cacheControl,
    };
    if (served.codings.length > 0) headers['Vary'] = 'Accept-Encoding';
    if (coding) headers['Content-Encoding'] = coding;
    if (served.sourceMap) headers['SourceMap'] = served.sourceMap;
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

/** Every file of a build, by its URL path, with its compressed forms. */
function loadBuild(root: string, options: StaticClientOptions): Map<string, ClientFile> {
  const bodies = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = '/' + path.relative(root, file).split(path.sep).join('/');
    // Source maps not served are not held either (they are most of a build's bytes).
    if (!options.serveSourceMaps && urlPath.endsWith('.map')) continue;
    try {
      bodies.set(urlPath, fs.readFileSync(file) as Uint8Array<ArrayBuffer>);
    } catch {
      // Removed while reading (a build being swapped in): the next check reloads.
    }
  }
  const variants = new Set<string>();
  for (const urlPath of bodies.keys()) {
    for (const coding of CODINGS) {
      if (bodies.has(urlPath + SUFFIX[coding])) variants.add(urlPath + SUFFIX[coding]);
    }
  }
  const files = new Map<string, ClientFile>();
  for (const [urlPath, body] of bodies) {
    if (variants.has(urlPath)) continue;
    const extension = path.extname(urlPath).toLowerCase();
    if (extension === '.map' && !options.serveSourceMaps) continue;
    const encoded: ClientFile['encoded'] = {};
    for (const coding of CODINGS) {
      const variant = bodies.get(urlPath + SUFFIX[coding]);
      if (variant) encoded[coding] = variant;
    }
    const sourceMap = `${urlPath}.map`;
    files.set(urlPath, {
      body,
      type: TYPES[extension] ?? 'application/octet-stream',
      cacheControl: urlPath.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
      encoded,
      codings: CODINGS.filter((coding) => encoded[coding]),
      ...(options.serveSourceMaps && bodies.has(sourceMap) ? { sourceMap } : {}),
    });
  }
  return files;
}
