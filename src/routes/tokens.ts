import type { Hono } from 'hono';
import type { AdminToken, Token } from '../../contract/tokens.ts';
import type { AppContext } from '../context.ts';
import type { ApiTokenRow } from '../db/schema/index.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

export function presentToken(token: ApiTokenRow): Token {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
  };
}

function presentAdminToken(token: ApiTokenRow & { username: string }): AdminToken {
  return { ...presentToken(token), userId: token.userId, username: token.username };
}

/** Personal access tokens (contract/tokens.ts): session-only, by the route table. */
export function tokenRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/tokens');
  const service = ctx.tokens;

  on('GET /tokens', async (c) => ({
    tokens: (await service.list(currentUser(c).id)).map(presentToken),
  }));

  on('POST /tokens', async (c, { body }) => {
    const { token, secret } = await service.create(currentUser(c), body);
    return { token: presentToken(token), secret };
  });

  on('GET /tokens/all', async () => ({
    tokens: (await service.listAll()).map(presentAdminToken),
  }));

  on('DELETE /tokens/{id}', async (c) => {
    await service.revoke(currentUser(c), idParam(c, 'id', 'Access token'));
  });

  return router;
}
