import { execFileSync } from 'node:child_process';
import type { TestVault } from './vault.ts';

/**
 * A TOTP code computed by Debian's oathtool (independent of the server's otplib), for the
 * given time in milliseconds (default: now).
 */
export function totpCode(secret: string, atMs?: number): string {
  const args = ['--totp', '-b', secret];
  if (atMs !== undefined) args.push('-N', `@${Math.floor(atMs / 1000)}`);
  return execFileSync('oathtool', args, { encoding: 'utf8' }).trim();
}

/** "name=value" of a cookie a response sets with a value, or undefined. */
export function cookieFrom(res: Response, name: string): string | undefined {
  const header = res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`));
  return header?.split(';')[0];
}

/** The full Set-Cookie header for a name (to check its attributes), or undefined. */
export function setCookieHeader(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

/** True when the response clears the cookie (an empty value). */
export function clearsCookie(res: Response, name: string): boolean {
  return res.headers.getSetCookie().some((c) => c.startsWith(`${name}=;`));
}

/**
 * A 6-digit code that is certainly wrong at the given time: none of the codes of the current,
 * previous and next step (which the server accepts for clock drift).
 */
export function wrongTotpCode(secret: string, atMs: number): string {
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpCode(secret, atMs + d)));
  for (let n = 0; ; n++) {
    const candidate = String((123_456 + n * 7_919) % 1_000_000).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

/**
 * Signs in (no second factor on) and enters the password again, so that for five minutes of the
 * vault's clock the session may change the second factor without sending the password.
 */
export async function signInReauthenticated(
  vault: TestVault,
  user: { username: string; password: string },
): Promise<string> {
  const cookie = await vault.login(user.username, user.password);
  const res = await vault.postJson('/api/auth/reauthenticate', { password: user.password }, cookie);
  if (res.status !== 200) throw new Error(`reauthenticate failed: ${res.status}`);
  return cookie;
}

/**
 * Turns the authenticator app on for a user: a re-authenticated session, setup, then a code
 * for the vault's time `clockMs`. The caller moves its clock past that step before the next
 * code. Answers the session and what setup returned.
 */
export async function enableTotp(
  vault: TestVault,
  user: { username: string; password: string },
  clockMs: number,
): Promise<{ cookie: string; secret: string; backupCodes: string[] }> {
  const cookie = await signInReauthenticated(vault, user);
  const setup = (await (await vault.postJson('/api/totp/setup', {}, cookie)).json()) as {
    secret: string;
    backupCodes: string[];
  };
  const res = await vault.postJson(
    '/api/totp/verify',
    { token: totpCode(setup.secret, clockMs) },
    cookie,
  );
  if (res.status !== 200) throw new Error(`verify failed: ${res.status}`);
  return { cookie, secret: setup.secret, backupCodes: setup.backupCodes };
}
