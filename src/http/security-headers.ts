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
 * Conservative headers on every response (set by src/http/front-door.ts): nosniff, referrer
 * policy and, when the vault's origin is https, HSTS. Pages (and everything else outside /api)
 * also get frame denial, opener isolation and the client's strict Content-Security-Policy
 * (stored images set their own). JSON answers under /api get the shortest policy that forbids
 * everything instead: they are never rendered, and a third of their size was headers meant
 * for pages.
 */
export function securityHeaderSets(origin: string): {
  api: readonly [string, string][];
  page: readonly [string, string][];
} {
  const hsts: [string, string][] =
    new URL(origin).protocol === 'https:' ? [['Strict-Transport-Security', HSTS]] : [];
  const common: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'same-origin'],
    ...hsts,
  ];
  return {
    page: [
      ...common,
      ['X-Frame-Options', 'DENY'],
      ['Cross-Origin-Opener-Policy', 'same-origin'],
      ['Content-Security-Policy', CSP],
    ],
    api: [...common, ['Content-Security-Policy', API_CSP]],
  };
}
