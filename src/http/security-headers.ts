import type { MiddlewareHandler } from 'hono';
import { onNodeServer, presetHeader } from './node-fast-path.ts';

const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** HSTS for a year, subdomains included: sent only when the vault's origin is https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Conservative headers on every response: nosniff, frame denial, referrer policy, opener
 * isolation, a strict Content-Security-Policy (stored images set their own) and, when the
 * vault's origin is https, HSTS.
 */
export function securityHeaders(origin: string): MiddlewareHandler {
  const headers: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'same-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Content-Security-Policy', CSP],
  ];
  if (new URL(origin).protocol === 'https:') headers.push(['Strict-Transport-Security', HSTS]);
  return async (c, next) => {
    for (const [name, value] of headers) presetHeader(c, name, value);
    await next();
    if (onNodeServer(c)) return;
    // In-process, a Response built outside the context (Fedify's) did not take them.
    const built = c.res.headers;
    if (!built.has('X-Content-Type-Options')) {
      for (const [name, value] of headers) if (!built.has(name)) built.set(name, value);
    }
  };
}
