import type { Context, MiddlewareHandler } from 'hono';

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

/** The Node response under @hono/node-server (absent when the app is called in-process). */
interface NodeResponse {
  setHeader(name: string, value: string): unknown;
}

function nodeResponse(c: Context): NodeResponse | undefined {
  const env = c.env as { outgoing?: NodeResponse } | undefined;
  return env?.outgoing;
}

/**
 * Sets a header that every response of this request carries, before the handler runs. On
 * the Node server it goes straight onto the socket's response (Node merges it with the
 * handler's headers, which win), so no Headers object is built and no Response is copied;
 * called in-process (app.request, tests) it goes through Hono's context.
 */
export function presetHeader(c: Context, name: string, value: string): void {
  const outgoing = nodeResponse(c);
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}

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
    if (nodeResponse(c)) return;
    // In-process, a Response built outside the context (Fedify's) did not take them.
    const built = c.res.headers;
    if (!built.has('X-Content-Type-Options')) {
      for (const [name, value] of headers) if (!built.has(name)) built.set(name, value);
    }
  };
}
