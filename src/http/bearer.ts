import type { Context } from 'hono';
import { forbidden, unauthorized } from '../domain-error.ts';
import type { TokenRateLimit } from '../tokens/rate-limit.ts';
import type { TokenService } from '../tokens/service.ts';
import { SESSION_ONLY, READ_ONLY } from './contract-route.ts';
import type { AppEnv } from './env.ts';
import { compileTokenGate } from './token-gate.ts';

export const INVALID_TOKEN = 'The access token is not valid (unknown, revoked or expired)';

/** The secret of `Authorization: Bearer <secret>`, or undefined for any other header. */
export function bearerSecret(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.length < 7) return undefined;
  if (authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return authorization.slice(7).trim();
}

/**
 * Signs a request in by its access token: the token's owner becomes the user and the token
 * (its id and scope) is put on the context; no session is read or made and no cookie is
 * touched. Refuses, before any handler runs: an unknown, revoked or expired token (401), a
 * token past its rate limit (429), and any route the token may not reach (403): only routes
 * of the table with access `read` or `write` (src/http/token-gate.ts), `write` ones with the
 * write scope.
 */
export function bearerLoader(
  tokens: TokenService,
  limit: TokenRateLimit,
): (c: Context<AppEnv>, method: string, path: string, secret: string) => void {
  const gate = compileTokenGate();
  return (c, method, path, secret) => {
    const found = tokens.authenticate(secret);
    if (!found) throw unauthorized(INVALID_TOKEN);
    const { token, user } = found;
    limit.take(token.id);
    const admission = gate(method, path);
    if (admission === 'refused') throw forbidden(SESSION_ONLY);
    if (admission === 'write' && token.scope !== 'write') throw forbidden(READ_ONLY);
    c.set('user', user);
    c.set('session', undefined);
    c.set('token', { id: token.id, scope: token.scope });
  };
}
