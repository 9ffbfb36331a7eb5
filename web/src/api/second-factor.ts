/**
 * The signed-in user's second factor (/webauthn/* and /totp/*): security keys
 * and the authenticator app. Sign-in calls (the pending login's second step) live in sign-in.ts.
 * Every call is typed from the route table (./call.ts).
 */
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import type { CredentialsChange, RegistrationVerifyBody } from '../../../contract/second-factor.ts';
import type { RegistrationOptions } from '../../../contract/webauthn.ts';
import { call } from './call.ts';
import type { SecurityKeyCredential, TotpSetupData, User } from './types.ts';

/** The key list together with the changed user (webauthnEnabled follows the list). */
export type { CredentialsChange };

/** A security key's label: its nickname, or the first 8 characters of its credentialId. */
export function credentialLabel(
  credential: Pick<SecurityKeyCredential, 'nickname' | 'credentialId'>,
): string {
  const nickname = credential.nickname?.trim();
  return nickname ? nickname : credential.credentialId.slice(0, 8);
}

// ---------------------------------------------------------------------------------------------
// Security keys

/** GET /webauthn/credentials → field credentials. */
export async function fetchCredentials(): Promise<SecurityKeyCredential[]> {
  return (await call('GET /webauthn/credentials')).credentials;
}

/**
 * Changing the second factor needs the current password. It is sent when given (an empty field
 * is left out); without it the server accepts a session that entered it in the last five
 * minutes, and otherwise answers 403 with a message asking for it.
 */
const withPassword = (password?: string) => (password ? { password } : {});

/** POST /webauthn/registration/options (with the current password) → options for startRegistration. */
export function registrationOptions(password?: string): Promise<RegistrationOptions> {
  return call('POST /webauthn/registration/options', { json: withPassword(password) });
}

/** POST /webauthn/registration/verify with the browser's result and the nickname (or null). */
export function verifyRegistration(
  result: RegistrationResponseJSON,
  nickname: string | null,
  password?: string,
): Promise<CredentialsChange> {
  // The contract types the fields the server checks, and lets the library's others through.
  const json = { ...result, nickname, ...withPassword(password) } as RegistrationVerifyBody;
  return call('POST /webauthn/registration/verify', { json });
}

/** DELETE /webauthn/credentials/{id} (with the current password) → the remaining keys. */
export function deleteCredential(id: number, password?: string): Promise<CredentialsChange> {
  return call('DELETE /webauthn/credentials/{id}', {
    params: { id },
    json: withPassword(password),
  });
}

// ---------------------------------------------------------------------------------------------
// Authenticator app

/** POST /totp/setup (with the current password) → secret, otpAuthUrl, qrCode and backupCodes. */
export function startTotpSetup(password?: string): Promise<TotpSetupData> {
  return call('POST /totp/setup', { json: withPassword(password) });
}

/** POST /totp/verify with the first code (and the current password): the app is on. */
export async function verifyTotpSetup(token: string, password?: string): Promise<User> {
  return (await call('POST /totp/verify', { json: { token, ...withPassword(password) } })).user;
}

/** POST /totp/disable with a current code and the password. */
export async function disableTotp(token: string, password: string): Promise<User> {
  return (await call('POST /totp/disable', { json: { token, password } })).user;
}
