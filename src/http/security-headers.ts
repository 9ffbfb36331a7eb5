import type { MiddlewareHandler } from 'hono';

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
 * Conservative headers on every response. They are set before the handler runs, so they go
 * into the response as it is built (c.json, c.body): no response is copied to add them.
 * Handlers that need another Content-Security-Policy (stored images) set their own.
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
    for (const [name, value] of headers) c.header(name, value);
    await next();
    // A Response built outside the context (Fedify's) did not take them: add them in place.
    const built = c.res.headers;
    if (!built.has('X-Content-Type-Options')) {
      for (const [name, value] of headers) if (!built.has(name)) built.set(name, value);
    }
  };
}
