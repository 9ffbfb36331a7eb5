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

/** JSON answers are never rendered: nothing may load, and nothing may frame them. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** HSTS for a year, subdomains included: sent only when the vault's origin is https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Conservative headers on every response: nosniff, referrer policy and, when the vault's
 * origin is https, HSTS. Pages (and everything else outside /api) also get frame denial,
 * opener isolation and the client's strict Content-Security-Policy (stored images set their
 * own). JSON answers under /api get the shortest policy that forbids everything instead:
 * they are never rendered, and a third of their size was headers meant for pages.
 */
export function securityHeaders(origin: string): MiddlewareHandler {
  const hsts: [string, string][] =
    new URL(origin).protocol === 'https:' ? [['Strict-Transport-Security', HSTS]] : [];
  const common: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'same-origin'],
    ...hsts,
  ];
  const page: [string, string][] = [
    ...common,
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Content-Security-Policy', CSP],
  ];
  const api: [string, string][] = [...common, ['Content-Security-Policy', API_CSP]];
  return async (c, next) => {
    const headers = c.req.path.startsWith('/api/') ? api : page;
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
