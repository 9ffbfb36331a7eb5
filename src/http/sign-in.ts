import type { Context } from 'hono';
import type { SessionService } from '../auth/sessions.ts';
import type { AppEnv } from './env.ts';
import { setSessionCookie, type CookiePolicy } from './session.ts';

/**
 * Starts a session for a user who has passed every sign-in step, with rotation: whatever
 * session the browser had ends, and a fresh token is set in the session cookie.
 */
export async function startSession(
  c: Context<AppEnv>,
  deps: { sessions: SessionService; cookie: CookiePolicy; absoluteMs: number },
  userId: number,
  address: string,
): Promise<void> {
  const previous = c.get('session');
  if (previous) await deps.sessions.end(previous.idHash);
  const { token } = await deps.sessions.start(userId, {
    userAgent: c.req.header('user-agent') ?? '',
    ipAddress: address,
  });
  setSessionCookie(c, deps.cookie, token, deps.absoluteMs);
}
