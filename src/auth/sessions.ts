import { hash, randomBytes } from 'node:crypto';
import type { SessionRow } from '../db/schema/index.ts';
import type { SessionRepository } from './session-repository.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

const RECENT_TOKENS = 1000;

/**
 * hashToken for the cookie of every signed-in request, remembered for the most recent tokens:
 * hashing was a tenth of a signed-in request's cost. A token maps to one hash forever, so the
 * memo can never be stale; it holds only tokens that requests carried anyway, and forgets
 * them all when full.
 */
export function recentTokenHashes() {
  const known = new Map<string, string>();
  return (token: string): string => {
    let idHash = known.get(token);
    if (idHash === undefined) {
      idHash = hashToken(token);
      if (known.size >= RECENT_TOKENS) known.clear();
      known.set(token, idHash);
    }
    return idHash;
  };
}

/**
 * Sessions: an opaque random token in the cookie, only its hash in the database; idle and
 * absolute expiry. Rotation means: the caller ends the old session and starts a new one.
 */
export function createSessionService(
  repo: SessionRepository,
  policy: SessionPolicy,
  now: () => number = Date.now,
) {
  const hashOf = recentTokenHashes();
  /** What a stored session needs at time t: nothing, a touch, or deleting (it ended). */
  const stateOf = (row: SessionRow, t: number) => {
    if (row.expiresAt.getTime() <= t || row.lastSeenAt.getTime() + policy.idleMs <= t) {
      return 'ended';
    }
    return t - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS ? 'touch' : 'live';
  };
  return {
    async start(userId: number, meta: { userAgent: string; ipAddress: string }) {
      const token = randomBytes(32).toString('base64url');
      const t = now();
      const row: SessionRow = {
        idHash: hashToken(token),
        userId,
        createdAt: new Date(t),
        lastSeenAt: new Date(t),
        expiresAt: new Date(t + policy.absoluteMs),
        userAgent: meta.userAgent.slice(0, 300),
        ipAddress: meta.ipAddress.slice(0, 64),
        reauthenticatedAt: null,
      };
      await repo.insert(row);
      return { token, session: row };
    },

    /**
     * resolve's answer at once when the session is memoized, live and needs no write: a
     * signed-in request's usual case (src/http/session.ts); undefined when resolve must run.
     */
    peek(token: string): SessionRow | undefined {
      if (token.length === 0 || token.length > 100) return undefined;
      const row = repo.peekByIdHash(hashOf(token))?.value;
      return row && stateOf(row, now()) === 'live' ? row : undefined;
    },

    /** The live session for a cookie token, or undefined (expired sessions are deleted). */
    async resolve(token: string): Promise<SessionRow | undefined> {
      if (token.length === 0 || token.length > 100) return undefined;
      const row = await repo.findByIdHash(hashOf(token));
      if (!row) return undefined;
      const t = now();
      const state = stateOf(row, t);
      if (state === 'ended') {
        await repo.delete(row.idHash);
        return undefined;
      }
      if (state === 'touch') {
        row.lastSeenAt = new Date(t);
        await repo.touch(row.idHash, row.lastSeenAt);
      }
      return row;
    },

    /** When this session ends if unused: the earlier of idle and absolute expiry. */
    expiresAt(row: SessionRow): Date {
      return new Date(Math.min(row.expiresAt.getTime(), row.lastSeenAt.getTime() + policy.idleMs));
    },

    /** A user's sessions that are still live. */
    async listForUser(userId: number): Promise<SessionRow[]> {
      const t = now();
      return (await repo.listForUser(userId)).filter(
        (s) => s.expiresAt.getTime() > t && s.lastSeenAt.getTime() + policy.idleMs > t,
      );
    },

    /** The password was entered again in this session now: when; undefined if the session is gone. */
    async markReauthenticated(idHash: string): Promise<Date | undefined> {
      const at = new Date(now());
      return (await repo.setReauthenticatedAt(idHash, at)) ? at : undefined;
    },

    end(idHash: string): Promise<void> {
      return repo.delete(idHash);
    },

    endAllForUser(userId: number, exceptIdHash?: string): Promise<number> {
      return repo.deleteForUser(userId, exceptIdHash);
    },

    purgeExpired(): Promise<number> {
      const t = now();
      return repo.deleteExpired(new Date(t), new Date(t - policy.idleMs));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
