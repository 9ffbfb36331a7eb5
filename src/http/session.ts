import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { SessionService } from '../auth/sessions.ts';
import type { UserRepository } from '../users/repository.ts';
import { forbidden, unauthorized } from '../domain-error.ts';
import type { AppEnv } from './env.ts';
import { requestHeader } from './node-fast-path.ts';

export interface CookiePolicy {
  name: string;
  secure: boolean;
}

/** `__Host-` pins the cookie to this host and path / (allowed only with Secure, i.e. https). */
export function cookiePolicy(origin: string): CookiePolicy {
  const secure = new URL(origin).protocol === 'https:';
  return { name: secure ? '__Host-vault_session' : 'vault_session', secure };
}

/**
 * Loads the signed-in user (if any) from the session cookie onto the context. Returns a promise
 * only when it had to read: a session and user both memoized (src/db/read-cache.ts) are set at
 * once, as every signed-in request would otherwise pay for two promises it does not need.
 */
export function sessionLoader(
  sessions: SessionService,
  users: UserRepository,
  cookie: CookiePolicy,
): (c: Context<AppEnv>) => Promise<void> | undefined {
  const read = async (c: Context<AppEnv>, token: string) => {
    const session = await sessions.resolve(token);
    const user = session ? await users.findById(session.userId) : undefined;
    if (session && user) {
      c.set('session', session);
      c.set('user', user);
    } else {
      deleteCookie(c, cookie.name, { path: '/', secure: cookie.secure });
    }
  };
  return (c) => {
    const token = readCookie(requestHeader(c, 'cookie'), cookie.name);
    c.set('user', undefined);
    c.set('session', undefined);
    if (!token) return undefined;
    const session = sessions.peek(token);
    const user = session && users.peekById(session.userId)?.value;
    if (!session || !user) return read(c, token);
    c.set('session', session);
    c.set('user', user);
    return undefined;
  };
}

/** sessionLoader as a middleware, for routes outside /api (stored photos). */
export function loadSession(
  sessions: SessionService,
  users: UserRepository,
  cookie: CookiePolicy,
): MiddlewareHandler<AppEnv> {
  const load = sessionLoader(sessions, users, cookie);
  return async (c, next) => {
    await load(c);
    await next();
  };
}

/**
 * One cookie's value from a Cookie header, without parsing the others (this runs on every
 * API request; a general cookie parser was a tenth of a signed-in request's cost). Session
 * and pending-login tokens are base64url: nothing to decode.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let from = 0;
  for (;;) {
    const at: number = header.indexOf(name, from);
    if (at < 0) return undefined;
    const before = at === 0 ? ';' : header[at - 1];
    const eq = at + name.length;
    if ((before === ';' || before === ' ') && header[eq] === '=') {
      const end = header.indexOf(';', eq);
      return header.slice(eq + 1, end < 0 ? undefined : end).trim();
    }
    from = at + 1;
  }
}

export function setSessionCookie(
  c: Context,
  cookie: CookiePolicy,
  token: string,
  maxAgeMs: number,
) {
  setCookie(c, cookie.name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: cookie.secure,
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearSessionCookie(c: Context, cookie: CookiePolicy) {
  deleteCookie(c, cookie.name, { path: '/', secure: cookie.secure });
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) throw unauthorized();
  await next();
};

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get('user');
  if (!user) throw unauthorized();
  if (user.role !== 'ADMIN') throw forbidden('Only an admin can do that');
  await next();
};

/** The signed-in user; use after requireUser. */
export function currentUser(c: Context<AppEnv>) {
  const user = c.get('user');
  if (!user) throw unauthorized();
  return user;
}
