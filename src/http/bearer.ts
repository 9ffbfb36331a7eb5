import type { Context } from 'hono';
import type { UserRow } from '../db/schema/index.ts';
import { forbidden, unauthorized } from '../domain-error.ts';
import type { TokenRateLimit } from '../tokens/rate-limit.ts';
import type { TokenService } from '../tokens/service.ts';
import { SESSION_ONLY, READ_ONLY } from './contract-route.ts';
import type { AppEnv } from './env.ts';
import { compileTokenGate } from './token-gate.ts';

/** The token a request came with, as the context keeps it. */
type UsedToken = NonNullable<AppEnv['Variables']['token']>;

export const INVALID_TOKEN = 'The access token is not valid (unknown, revoked or expired)';

/** The secret of `Authorization: Bearer <secret>`, or undefined for any other header. */
export function bearerSecret(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.length < 7) return undefined;
  if (authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return authorization.slice(7).trim();
}

/**
 * Who a token request acts as: its owner with the role of a plain user, whatever the owner's
 * role. Every authorization decision (the visibility policy, the change rules of entries and
 * the rest, the admin routes) reads the role from the request's user, so an admin's token
 * reaches only what the admin may reach as a person with no admin power; admin work needs a
 * signed-in session.
 */
export function actingUserOfToken(owner: UserRow): UserRow {
  return owner.role === 'USER' ? owner : { ...owner, role: 'USER' };
}

/**
 * Signs a request in by an access token's secret: refuses an unknown, revoked or expired
 * token (401) and one whose owner is past the rate limit of their tokens (429); else puts the
 * acting user (`actingUserOfToken`) and the token on the context, with no session.
 */
export function tokenSignIn(
  tokens: TokenService,
  limit: TokenRateLimit,
): (c: Context<AppEnv>, secret: string) => Promise<UsedToken> {
  return async (c, secret) => {
    const found = await tokens.authenticate(secret);
    if (!found) throw unauthorized(INVALID_TOKEN);
    const { token, user } = found;
    limit.take(user.id);
    const used: UsedToken = { id: token.id, scope: token.scope };
    c.set('user', actingUserOfToken(user));
    c.set('session', undefined);
    c.set('token', used);
    return used;
  };
}

/**
 * Signs a request in by its access token (`tokenSignIn`): no session is read or made and no
 * cookie is touched. Refuses, before any handler runs: an unknown, revoked or expired token
 * (401), a token whose owner is past the rate limit (429), and any route the token may not
 * reach (403): only routes of the table with access `read` or `write` and the public reads
 * (src/http/token-gate.ts), `write` ones with the write scope.
 */
export function bearerLoader(
  tokens: TokenService,
  limit: TokenRateLimit,
): (c: Context<AppEnv>, method: string, path: string, secret: string) => Promise<void> {
  const gate = compileTokenGate();
  const signIn = tokenSignIn(tokens, limit);
  return async (c, method, path, secret) => {
    const token = await signIn(c, secret);
    const admission = gate(method, path);
    if (admission === 'refused') throw forbidden(SESSION_ONLY);
    if (admission === 'write' && token.scope !== 'write') throw forbidden(READ_ONLY);
  };
}
