import { randomBytes } from 'node:crypto';
import type { PendingLoginKind, PendingLoginRow } from '../db/schema/index.ts';
import { DomainError } from '../domain-error.ts';
import type { SecondFactorRepository } from './second-factor-repository.ts';
import { hashToken } from './sessions.ts';

export const PENDING_LOGIN_TTL_MS = 5 * 60_000;
/** Failed second steps one pending login allows; the next failure ends it. */
export const PENDING_LOGIN_MAX_ATTEMPTS = 5;

export const SIGN_IN_EXPIRED = 'Your sign-in expired. Sign in again.';
export const TOO_MANY_ATTEMPTS = 'Too many failed attempts. Sign in again.';

export const signInExpired = () => new DomainError(401, SIGN_IN_EXPIRED);

/**
 * Pending logins: what the password step yields when a second factor is on. Not a session: it
 * opens no route but the matching second step. The browser holds a random token in its own
 * cookie; only the token's SHA-256 is stored. Single-use, expires after 5 minutes, and ends
 * after too many failed second steps.
 */
export function createPendingLogins(repo: SecondFactorRepository, now: () => number = Date.now) {
  return {
    async start(userId: number, kind: PendingLoginKind, challenge: string | null = null) {
      const t = now();
      await repo.deleteExpiredPending(new Date(t));
      const token = randomBytes(32).toString('base64url');
      const row: PendingLoginRow = {
        idHash: hashToken(token),
        userId,
        kind,
        challenge,
        attempts: 0,
        createdAt: new Date(t),
        expiresAt: new Date(t + PENDING_LOGIN_TTL_MS),
      };
      await repo.insertPending(row);
      return { token, row };
    },

    /** The live pending login for a cookie token, or undefined (an expired one is deleted). */
    async resolve(token: string | undefined): Promise<PendingLoginRow | undefined> {
      if (!token || token.length > 100) return undefined;
      const row = await repo.findPending(hashToken(token));
      if (!row) return undefined;
      if (row.expiresAt.getTime() <= now()) {
        await repo.deletePending(row.idHash);
        return undefined;
      }
      return row;
    },

    /** Still there and not expired (inside a transaction, after any other await). */
    async isLive(idHash: string): Promise<boolean> {
      const row = await repo.findPending(idHash);
      return row !== undefined && row.expiresAt.getTime() > now();
    },

    /** Ends a pending login. False if it had already ended (another request completed it). */
    consume(idHash: string): Promise<boolean> {
      return repo.deletePending(idHash);
    },

    /**
     * Counts a failed second step. 'ended' when that was one too many: the pending login is
     * then ended and the user must sign in again; 'gone' when it had already ended.
     */
    recordFailure(idHash: string): Promise<'counted' | 'ended' | 'gone'> {
      return repo.transaction(async () => {
        const attempts = await repo.addPendingAttempt(idHash);
        if (attempts === 0) return 'gone';
        if (attempts >= PENDING_LOGIN_MAX_ATTEMPTS) {
          await repo.deletePending(idHash);
          return 'ended';
        }
        return 'counted';
      });
    },

    async end(token: string | undefined): Promise<void> {
      if (token && token.length <= 100) await repo.deletePending(hashToken(token));
    },
  };
}

export type PendingLogins = ReturnType<typeof createPendingLogins>;
