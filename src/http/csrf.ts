import type { Context } from 'hono';
import { forbidden } from '../domain-error.ts';
import { requestHeader } from './node-fast-path.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses cross-site state-changing requests. Browsers send Origin on every POST, PATCH and
 * DELETE made by fetch; it must be the vault's public origin, VAULT_ORIGIN, and nothing
 * derived from the request (its Host header is the client's to choose). Without Origin,
 * Sec-Fetch-Site must not say cross-site. Clients that are not browsers (curl, scripts) send
 * neither and cannot be forged by a web page.
 */
export function checkCrossSite(configuredOrigin: string): (c: Context, method: string) => void {
  return (c, method) => {
    if (SAFE_METHODS.has(method)) return;
    const origin = requestHeader(c, 'origin');
    const fetchSite = requestHeader(c, 'sec-fetch-site');
    if (origin !== undefined) {
      if (origin !== configuredOrigin) throw forbidden('Cross-site request refused');
    } else if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      throw forbidden('Cross-site request refused');
    }
  };
}
