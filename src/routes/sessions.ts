import type { Hono } from 'hono';
import type { SessionInfo } from '../../contract/auth.ts';
import type { AppContext } from '../context.ts';
import { notFound } from '../domain-error.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** A session's public handle: a prefix of its stored hash (never the token itself). */
const handleOf = (idHash: string) => idHash.slice(0, 16);

/** /api/auth/sessions: the signed-in user's sessions, to see and end them. */
export function sessionRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/auth/sessions');

  on('GET /auth/sessions', async (c) => {
    const user = currentUser(c);
    const current = c.get('session')!;
    const sessions = (await ctx.sessions.listForUser(user.id))
      .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
      .map((s): SessionInfo => ({
        id: handleOf(s.idHash),
        current: s.idHash === current.idHash,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: ctx.sessions.expiresAt(s).toISOString(),
        userAgent: s.userAgent,
        ipAddress: s.ipAddress,
      }));
    return { sessions };
  });

  on('DELETE /auth/sessions/{id}', async (c) => {
    const user = currentUser(c);
    const target = (await ctx.sessions.listForUser(user.id)).find(
      (s) => handleOf(s.idHash) === c.req.param('id'),
    );
    if (!target) throw notFound('Session not found');
    await ctx.sessions.end(target.idHash);
  });

  return router;
}
