/**
 * The signed-in user's second factor (/webauthn/* and /totp/*): security keys
 * and the authenticator app. Sign-in calls (the pending login's second step) live in client.ts.
 */
import { ApiError, INVALID_RESPONSE, request } from './client.ts';
import type { SecurityKeyCredential, TotpSetupData, User } from './types.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function credentialsOf(data: unknown): SecurityKeyCredential[] {
  if (isRecord(data) && Array.isArray(data.credentials)) {
    return data.credentials as SecurityKeyCredential[];
  }
  throw new ApiError(INVALID_RESPONSE, 200);
}

function userOf(data: unknown): User {
  if (isRecord(data) && isRecord(data.user)) return data.user as unknown as User;
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** The key list together with the changed user (webauthnEnabled follows the list). */
export interface CredentialsChange {
  credentials: SecurityKeyCredential[];
  /** Absent when the server did not send it. */
  user: User | null;
}

function changeOf(data: unknown): CredentialsChange {
  return {
    credentials: credentialsOf(data),
    user: isRecord(data) && isRecord(data.user) ? (data.user as unknown as User) : null,
  };
}

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
  return credentialsOf(await request('/webauthn/credentials'));
}

/**
 * Changing the second factor needs the current password. It is sent when given (an empty field
 * is left out); without it the server accepts a session that entered it in the last five
 * minutes, and otherwise answers 403 with a message asking for it.
 */
const withPassword = (password?: string) => (password ? { password } : {});

/** POST /webauthn/registration/options (with the current password) → options for startRegistration. */
export async function registrationOptions(password?: string): Promise<unknown> {
  const data = await request('/webauthn/registration/options', {
    method: 'POST',
    json: withPassword(password),
  });
  if (!isRecord(data)) throw new ApiError(INVALID_RESPONSE, 200);
  return data;
}

/** POST /webauthn/registration/verify with the browser's result and the nickname (or null). */
export async function verifyRegistration(
  result: object,
  nickname: string | null,
  password?: string,
): Promise<CredentialsChange> {
  return changeOf(
    await request('/webauthn/registration/verify', {
      json: { ...result, nickname, ...withPassword(password) },
    }),
  );
}

/** DELETE /webauthn/credentials/{id} (with the current password) → the remaining keys. */
export async function deleteCredential(id: number, password?: string): Promise<CredentialsChange> {
  return changeOf(
    await request(`/webauthn/credentials/${id}`, {
      method: 'DELETE',
      json: withPassword(password),
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Authenticator app

/** POST /totp/setup (with the current password) → secret, otpAuthUrl, qrCode and backupCodes. */
export async function startTotpSetup(password?: string): Promise<TotpSetupData> {
  const data = await request('/totp/setup', { method: 'POST', json: withPassword(password) });
  if (
    !isRecord(data) ||
    typeof data.secret !== 'string' ||
    typeof data.otpAuthUrl !== 'string' ||
    typeof data.qrCode !== 'string' ||
    !Array.isArray(data.backupCodes)
  ) {
    throw new ApiError(INVALID_RESPONSE, 200);
  }
  return data as unknown as TotpSetupData;
}

/** POST /totp/verify with the first code (and the current password): the app is on. */
export async function verifyTotpSetup(token: string, password?: string): Promise<User> {
  return userOf(await request('/totp/verify', { json: { token, ...withPassword(password) } }));
}

/** POST /totp/disable with a current code and the password. */
export async function disableTotp(token: string, password: string): Promise<User> {
  return userOf(await request('/totp/disable', { json: { token, password } }));
}
