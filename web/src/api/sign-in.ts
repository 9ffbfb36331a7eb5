/**
 * The sign-in calls: the password, then a second factor if the account has one. Loaded with the
 * login screen (or at the first sign-in), not with the first download.
 */
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { AuthenticationResponse } from '../../../contract/webauthn.ts';
import { call } from './call.ts';
import { ApiError, UNEXPECTED_LOGIN_RESPONSE, isRecord } from './client.ts';
import type { LoginAnswer, SessionGrant } from './types.ts';

export { UNEXPECTED_LOGIN_RESPONSE };

/**
 * Reads POST /auth/login's answer. It is one of three shapes ("Login
 * response"); anything else is 'Unexpected login response'.
 */
export function parseLoginResponse(data: unknown): LoginAnswer {
  if (
    isRecord(data) &&
    (data.requiresWebAuthn === true
      ? isRecord(data.options)
      : data.requiresTotp === true || isRecord(data.user))
  ) {
    return data as LoginAnswer;
  }
  throw new ApiError(UNEXPECTED_LOGIN_RESPONSE, 200);
}

/** POST /auth/login with JSON username and password. */
export async function login(username: string, password: string): Promise<LoginAnswer> {
  return parseLoginResponse(await call('POST /auth/login', { json: { username, password } }));
}

/** A second step's answer, or null when it came without a user (the pending login had expired). */
const grantOf = (grant: SessionGrant) => (isRecord(grant.user) ? grant : null);

/** POST /auth/login/totp with the code (or backup code). */
export async function loginWithTotp(token: string, backup: boolean): Promise<SessionGrant | null> {
  return grantOf(await call('POST /auth/login/totp', { json: { token, backup } }));
}

/** POST /webauthn/authentication/verify with the browser's assertion. */
export async function verifySecurityKeyLogin(
  assertion: AuthenticationResponseJSON,
): Promise<SessionGrant | null> {
  // The contract types the fields the server checks, and lets the library's others through.
  const json = assertion as AuthenticationResponse;
  return grantOf(await call('POST /webauthn/authentication/verify', { json }));
}
