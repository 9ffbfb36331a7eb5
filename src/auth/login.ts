import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { PendingLoginRow, UserRow, WebauthnCredentialRow } from '../db/schema/index.ts';
import { DomainError } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import { verifyPassword } from './passwords.ts';
import { TOO_MANY_ATTEMPTS, signInExpired, type PendingLogins } from './pending-logins.ts';
import type { SecondFactorRepository } from './second-factor-repository.ts';
import type { LoginThrottle } from './throttle.ts';
import { invalidSecondStep, type TotpService } from './totp.ts';
import { KEY_VERIFICATION_FAILED, type WebAuthnService } from './webauthn.ts';

/**
 * What the password step leads to: a session at once, or (when a second factor is on) a
 * pending login that only the matching second step can complete. `pendingToken` goes into
 * the browser's pending-login cookie; it is never a session.
 */
export type LoginOutcome =
  | { kind: 'signedIn'; user: UserRow }
  | {
      kind: 'requiresWebAuthn';
      user: UserRow;
      pendingToken: string;
      options: PublicKeyCredentialRequestOptionsJSON;
      credentials: WebauthnCredentialRow[];
    }
  | { kind: 'requiresTotp'; user: UserRow; pendingToken: string };

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const WRONG_SECOND_STEP_KEY = 'This sign-in needs your security key.';
export const WRONG_SECOND_STEP_CODE = 'This sign-in needs a code from your authenticator app.';

export interface LoginDeps {
  users: UserRepository;
  throttle: LoginThrottle;
  repo: SecondFactorRepository;
  pending: PendingLogins;
  webauthn: WebAuthnService;
  totp: TotpService;
}

export function createLoginService({ users, throttle, repo, pending, webauthn, totp }: LoginDeps) {
  /** The pending login of a cookie, of the expected kind, with its (still existing) user. */
  async function resolvePending(token: string | undefined, kind: PendingLoginRow['kind']) {
    const row = await pending.resolve(token);
    if (!row) throw signInExpired();
    if (row.kind !== kind) {
      throw new DomainError(
        400,
        row.kind === 'webauthn' ? WRONG_SECOND_STEP_KEY : WRONG_SECOND_STEP_CODE,
      );
    }
    const user = await users.findById(row.userId);
    if (!user) {
      await pending.consume(row.idHash);
      throw signInExpired();
    }
    return { row, user };
  }

  /**
   * A failed second step: the reserved attempt stays counted on the account and the address,
   * and the pending login counts it too.
   */
  async function failSecondStep(row: PendingLoginRow, error: DomainError): Promise<never> {
    const state = await pending.recordFailure(row.idHash);
    if (state === 'ended') throw new DomainError(401, TOO_MANY_ATTEMPTS);
    if (state === 'gone') throw signInExpired();
    throw error;
  }

  return {
    async withPassword(
      username: string,
      password: string,
      clientAddress: string,
    ): Promise<LoginOutcome> {
      const account = username.trim().toLowerCase();
      // Taken before the slow hash: parallel guesses cannot all pass the check first.
      const attempt = throttle.reserve(account, clientAddress);
      const user = await users.findByUsername(account);
      const ok = await verifyPassword(user?.passwordHash, password);
      // A wrong password keeps the reserved attempt: it is the recorded failure.
      if (!user || !ok) throw new DomainError(401, INVALID_CREDENTIALS);
      // With a second factor on, the right password only gives its attempt back: the
      // failures are cleared when the second step succeeds, so that re-entering the password
      // does not reset the code throttle.
      const credentials = await repo.listCredentials(user.id);
      if (credentials.length > 0 || user.totpEnabled) attempt.release();
      if (credentials.length > 0) {
        const options = await webauthn.authenticationOptions(credentials);
        const { token } = await pending.start(user.id, 'webauthn', options.challenge);
        return { kind: 'requiresWebAuthn', user, pendingToken: token, options, credentials };
      }
      if (user.totpEnabled) {
        const { token } = await pending.start(user.id, 'totp');
        return { kind: 'requiresTotp', user, pendingToken: token };
      }
      attempt.succeed();
      return { kind: 'signedIn', user };
    },

    /** Completes a pending login with an authenticator code or a backup code. */
    async withTotp(
      pendingToken: string | undefined,
      token: string,
      backup: boolean,
      address: string,
    ): Promise<UserRow> {
      const { row, user } = await resolvePending(pendingToken, 'totp');
      const attempt = throttle.reserve(user.username, address);
      // One transaction, awaiting only the database: the code (or backup code) is used and the
      // pending login ended together, or neither happens.
      const outcome = await repo.transaction(async () => {
        if (!(await pending.isLive(row.idHash))) return 'expired' as const;
        const fresh = await users.findById(user.id);
        if (!fresh?.totpEnabled) return 'expired' as const;
        if (!(await totp.useForSignIn(user.id, token, backup))) return 'wrong' as const;
        await pending.consume(row.idHash);
        return fresh;
      });
      if (outcome === 'expired') {
        attempt.release();
        await pending.consume(row.idHash);
        throw signInExpired();
      }
      if (outcome === 'wrong') return failSecondStep(row, invalidSecondStep(backup));
      attempt.succeed();
      return outcome;
    },

    /** Completes a pending login with a security-key assertion. */
    async withWebAuthn(
      pendingToken: string | undefined,
      response: AuthenticationResponseJSON,
      address: string,
    ): Promise<UserRow> {
      const { row, user } = await resolvePending(pendingToken, 'webauthn');
      // Taken before the assertion is checked: parallel attempts cannot all pass first.
      const attempt = throttle.reserve(user.username, address);
      let checked;
      try {
        checked = await webauthn.checkAssertion(user.id, row.challenge ?? '', response);
      } catch (error) {
        if (!(error instanceof DomainError)) {
          attempt.release();
          throw error;
        }
        return failSecondStep(row, error);
      }
      // After the await, in one transaction: the pending login must still be there (a
      // parallel request may have completed it) and the counter must still move forward.
      const outcome = await repo.transaction(async () => {
        if (!(await pending.isLive(row.idHash))) return 'expired' as const;
        if (!(await webauthn.recordAssertion(checked))) return 'wrong' as const;
        await pending.consume(row.idHash);
        return (await users.findById(user.id)) ?? ('expired' as const);
      });
      if (outcome === 'expired') {
        attempt.release();
        throw signInExpired();
      }
      if (outcome === 'wrong') {
        return failSecondStep(row, new DomainError(401, KEY_VERIFICATION_FAILED));
      }
      attempt.succeed();
      return outcome;
    },
  };
}

export type LoginService = ReturnType<typeof createLoginService>;
