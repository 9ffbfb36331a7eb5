import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { PENDING_LOGIN_TTL_MS } from '../auth/pending-logins.ts';

export interface PendingCookiePolicy {
  name: string;
  secure: boolean;
}

/**
 * The pending-login cookie: ties a sign-in waiting for its second factor to the browser that
 * passed the password step. HttpOnly, SameSite=Strict, 5 minutes; `__Host-` on https.
 */
export function pendingCookiePolicy(origin: string): PendingCookiePolicy {
  const secure = new URL(origin).protocol === 'https:';
  return { name: secure ? '__Host-vault_pending' : 'vault_pending', secure };
}

export function readPendingCookie(c: Context, policy: PendingCookiePolicy): string | undefined {
  return getCookie(c, policy.name);
}

export function setPendingCookie(c: Context, policy: PendingCookiePolicy, token: string) {
  setCookie(c, policy.name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Strict',
    secure: policy.secure,
    maxAge: Math.floor(PENDING_LOGIN_TTL_MS / 1000),
  });
}

export function clearPendingCookie(c: Context, policy: PendingCookiePolicy) {
  deleteCookie(c, policy.name, { path: '/', secure: policy.secure });
}
