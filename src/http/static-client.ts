import fs from 'node:fs';
import path from 'node:path';
import type { MiddlewareHandler } from 'hono';

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
};

/**
 * Serves the built client from web/dist. Hashed files under /assets are cached for a year;
 * every other GET that matches no file gets index.html, and the client routes it.
 */
export function staticClient(distDir: string): MiddlewareHandler {
  const root = path.resolve(distDir);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const indexFile = path.join(root, 'index.html');
    let requested: string;
    try {
      requested = decodeURIComponent(c.req.path);
    } catch {
      requested = '/';
    }
    const file = path.resolve(root, '.' + path.posix.normalize(requested));
    if (file.startsWith(root + path.sep) && isFile(file) && file !== indexFile) {
      const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      const immutable = requested.startsWith('/assets/');
      return new Response(c.req.method === 'HEAD' ? null : fs.readFileSync(file), {
        headers: {
          'Content-Type': type,
          'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        },
      });
    }
    if (!isFile(indexFile)) {
      return c.text('The vault client has not been built yet: run `npm run build`.', 503);
    }
    return new Response(c.req.method === 'HEAD' ? null : fs.readFileSync(indexFile), {
      headers: { 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-cache' },
    });
  };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
