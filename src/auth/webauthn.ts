import { randomBytes } from 'node:crypto';
import type { SecurityKeyCredential } from '../../contract/auth.ts';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { UserRow, WebauthnCredentialRow } from '../db/schema/index.ts';
import { DomainError, badRequest, conflict, notFound } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import type { SecondFactorRepository } from './second-factor-repository.ts';

export const RP_NAME = 'the vault';
/** How long a ceremony's challenge stays valid (the browser's own timeout is 60 s). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const BROWSER_TIMEOUT_MS = 60_000;

/**
 * @simplewebauthn/server is loaded with the first security-key ceremony, not at start (about
 * 200 ms and 20 MB that most requests never need).
 */
const simpleWebAuthn = () => import('@simplewebauthn/server');
const KNOWN_TRANSPORTS = new Set([
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
]);

export const TOTP_IS_ON =
  'Turn off the authenticator app before registering a security key. Only one second factor can be on at a time.';
export const REGISTRATION_EXPIRED = 'The security key registration expired. Start it again.';
export const REGISTRATION_FAILED = 'The security key could not be registered. Try again.';
export const KEY_ALREADY_REGISTERED = 'This security key is already registered.';
export const KEY_NOT_FOUND = 'Security key not found';
export const KEY_VERIFICATION_FAILED = 'The security key could not be verified. Try again.';

/** The Security key credential, as the API returns it (the contract's shape). */
export type CredentialDto = SecurityKeyCredential;

export function presentCredential(row: WebauthnCredentialRow): CredentialDto {
  return {
    id: row.id,
    credentialId: row.credentialId,
    nickname: row.nickname,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    transports: row.transports,
  };
}

/** A valid assertion, not yet recorded. */
export interface CheckedAssertion {
  credential: WebauthnCredentialRow;
  newCounter: number;
  backedUp: boolean;
  deviceType: WebauthnCredentialRow['deviceType'];
}

export interface WebAuthnDeps {
  repo: SecondFactorRepository;
  users: UserRepository;
  /** VAULT_ORIGIN: the expected origin; its hostname is the relying party id. */
  origin: string;
  now?: () => number;
}

/**
 * Security keys (WebAuthn, @simplewebauthn/server): registration bound to the session that
 * asked for the options, assertions bound to a pending login, several keys per user, the
 * signature counter stored and checked. Mutually exclusive with the authenticator app.
 */
export function createWebAuthnService({ repo, users, origin, now = Date.now }: WebAuthnDeps) {
  const rpID = new URL(origin).hostname;

  function removeAndSync(credential: WebauthnCredentialRow): Promise<UserRow> {
    return repo.transaction(async () => {
      await repo.deleteCredential(credential.id);
      const remaining = await repo.countCredentials(credential.userId);
      const user =
        remaining === 0
          ? await users.update(credential.userId, { webauthnEnabled: false })
          : await users.findById(credential.userId);
      if (!user) throw notFound('User not found');
      return user;
    });
  }

  return {
    rpID,

    list(userId: number): Promise<WebauthnCredentialRow[]> {
      return repo.listCredentials(userId);
    },

    /** Options for navigator.credentials.create(), remembered for this session only. */
    async registrationOptions(user: UserRow, sessionIdHash: string) {
      if (user.totpEnabled) throw conflict(TOTP_IS_ON);
      const existing = await repo.listCredentials(user.id);
      const userHandle = existing[0]?.userHandle ?? randomBytes(32).toString('base64url');
      const options = await (
        await simpleWebAuthn()
      ).generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: user.username,
        userDisplayName: user.fullName,
        userID: Buffer.from(userHandle, 'base64url'),
        attestationType: 'none',
        timeout: BROWSER_TIMEOUT_MS,
        excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
        authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
      });
      // After the await: the authenticator app may have been switched on meanwhile. Checked
      // and written in one transaction, so that it cannot be switched on in between.
      await repo.transaction(async () => {
        if ((await users.findById(user.id))?.totpEnabled) throw conflict(TOTP_IS_ON);
        await repo.putRegistration({
          sessionIdHash,
          userId: user.id,
          challenge: options.challenge,
          userHandle,
          expiresAt: new Date(now() + CHALLENGE_TTL_MS),
        });
      });
      return options;
    },

    /** Verifies the browser's registration response and stores the new key. */
    async register(
      user: UserRow,
      sessionIdHash: string,
      response: RegistrationResponseJSON,
      nickname: string | null,
    ): Promise<{ user: UserRow; credentials: WebauthnCredentialRow[] }> {
      // Taken (deleted) before anything else: a challenge serves one attempt only.
      const ceremony = await repo.takeRegistration(sessionIdHash);
      if (!ceremony || ceremony.userId !== user.id || ceremony.expiresAt.getTime() <= now()) {
        throw badRequest(REGISTRATION_EXPIRED);
      }
      if (user.totpEnabled) throw conflict(TOTP_IS_ON);
      let info;
      try {
        const result = await (
          await simpleWebAuthn()
        ).verifyRegistrationResponse({
          response,
          expectedChallenge: ceremony.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
        if (!result.verified) throw new Error('not verified');
        info = result.registrationInfo;
      } catch {
        throw badRequest(REGISTRATION_FAILED);
      }
      const transports = (info.credential.transports ?? []).filter((t) => KNOWN_TRANSPORTS.has(t));
      return repo.transaction(async () => {
        const fresh = await users.findById(user.id);
        if (!fresh) throw notFound('User not found');
        if (fresh.totpEnabled) throw conflict(TOTP_IS_ON);
        if (await repo.findCredentialByCredentialId(info.credential.id)) {
          throw conflict(KEY_ALREADY_REGISTERED);
        }
        await repo.insertCredential({
          userId: user.id,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey),
          counter: info.credential.counter,
          transports,
          userHandle: ceremony.userHandle,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          nickname,
          createdAt: new Date(now()),
        });
        // An authenticator-app setup that was never confirmed cannot be confirmed any more.
        await repo.deleteUnconfirmedTotp(user.id);
        const updated = await users.update(user.id, { webauthnEnabled: true });
        if (!updated) throw notFound('User not found');
        return { user: updated, credentials: await repo.listCredentials(user.id) };
      });
    },

    /** A user removes one of their own keys. Removing the last turns webauthnEnabled off. */
    removeOwn(user: UserRow, credentialDbId: number) {
      return repo.transaction(async () => {
        const credential = await repo.findCredential(credentialDbId);
        if (!credential || credential.userId !== user.id) throw notFound(KEY_NOT_FOUND);
        const updated = await removeAndSync(credential);
        return { user: updated, credentials: await repo.listCredentials(user.id) };
      });
    },

    /** An admin's view of a user's keys. */
    async listForUser(userId: number): Promise<WebauthnCredentialRow[]> {
      if (!(await users.findById(userId))) throw notFound('User not found');
      return repo.listCredentials(userId);
    },

    /** The id of the user a key belongs to (404 when there is no such key). */
    async ownerOf(credentialDbId: number): Promise<number> {
      const credential = await repo.findCredential(credentialDbId);
      if (!credential) throw notFound(KEY_NOT_FOUND);
      return credential.userId;
    },

    /** An admin removes any user's key. */
    removeAny(credentialDbId: number) {
      return repo.transaction(async () => {
        const credential = await repo.findCredential(credentialDbId);
        if (!credential) throw notFound(KEY_NOT_FOUND);
        const updated = await removeAndSync(credential);
        return { user: updated, credentials: await repo.listCredentials(credential.userId) };
      });
    },

    /** Options for navigator.credentials.get() at sign-in, allowing the user's keys. */
    async authenticationOptions(
      credentials: WebauthnCredentialRow[],
    ): Promise<PublicKeyCredentialRequestOptionsJSON> {
      return (await simpleWebAuthn()).generateAuthenticationOptions({
        rpID,
        timeout: BROWSER_TIMEOUT_MS,
        userVerification: 'preferred',
        allowCredentials: credentials.map((c) => ({
          id: c.credentialId,
          transports: c.transports,
        })),
      });
    },

    /**
     * Checks an assertion against a challenge and one of the user's keys. Returns what to
     * record if it is valid; never writes (the caller does, in its transaction). Throws a
     * 401 DomainError when the assertion is not valid.
     */
    async checkAssertion(
      userId: number,
      challenge: string,
      response: AuthenticationResponseJSON,
    ): Promise<CheckedAssertion> {
      const credential = await repo.findCredentialByCredentialId(response.id);
      if (!credential || credential.userId !== userId) {
        throw new DomainError(401, KEY_VERIFICATION_FAILED);
      }
      try {
        const result = await (
          await simpleWebAuthn()
        ).verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: {
            id: credential.credentialId,
            publicKey: new Uint8Array(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports,
          },
          requireUserVerification: false,
        });
        if (!result.verified) throw new Error('not verified');
        const info = result.authenticationInfo;
        return {
          credential,
          newCounter: info.newCounter,
          backedUp: info.credentialBackedUp,
          deviceType: info.credentialDeviceType,
        };
      } catch {
        throw new DomainError(401, KEY_VERIFICATION_FAILED);
      }
    },

    /**
     * Records a verified assertion, awaiting only the database (inside the caller's
     * transaction). Refuses a counter that did not move forward since the check: a replay or a
     * cloned key.
     */
    async recordAssertion(checked: CheckedAssertion): Promise<boolean> {
      const fresh = await repo.findCredential(checked.credential.id);
      if (!fresh || fresh.userId !== checked.credential.userId) return false;
      if ((checked.newCounter > 0 || fresh.counter > 0) && checked.newCounter <= fresh.counter) {
        return false;
      }
      await repo.recordCredentialUse(fresh.id, {
        counter: checked.newCounter,
        lastUsedAt: new Date(now()),
        backedUp: checked.backedUp,
        deviceType: checked.deviceType,
      });
      return true;
    },
  };
}

export type WebAuthnService = ReturnType<typeof createWebAuthnService>;
