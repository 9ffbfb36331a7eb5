import type { SessionRow, UserRow } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { DomainError, unauthorized } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import { verifyPassword } from './passwords.ts';
import type { SessionService } from './sessions.ts';
import type { LoginThrottle } from './throttle.ts';

/** How long entering the password again lets a session change the second factor. */
export const REAUTHENTICATION_WINDOW_MS = 5 * 60_000;

export const REAUTHENTICATION_REQUIRED =
  'Enter your current password to change your second factor.';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/**
 * A 403 that asks for the current password: the API answers it as
 * `{ message, reauthenticate: true }` so that a client can show its password field.
 */
export class ReauthenticationRequired extends DomainError {
  readonly reauthenticate = true;
  constructor(message: string) {
    super(403, message);
    this.name = 'ReauthenticationRequired';
  }
}

export interface ReauthDeps {
  users: UserRepository;
  sessions: SessionService;
  throttle: LoginThrottle;
  /** The password's check and its record on the session, together (src/db/transaction.ts). */
  transaction: Transaction;
  now?: () => number;
}

/**
 * Re-authentication: changing the second factor needs the current password, entered in this
 * request or in this session within the last five minutes (recorded on the session). A wrong
 * password counts against the sign-in throttle. A change of factor ends the user's other
 * sessions.
 */
export function createReauthService({
  users,
  sessions,
  throttle,
  transaction,
  now = Date.now,
}: ReauthDeps) {
  /**
   * Checks a password entered again, through the sign-in throttle: the one place this module
   * uses the throttle. Throws a 429 when over the limit, a ReauthenticationRequired when wrong.
   * Then, in one transaction with the check against the stored hash, runs `then`.
   */
  async function checkPassword<T>(
    user: UserRow,
    password: string,
    address: string,
    then: () => Promise<T>,
  ): Promise<T> {
    // Taken before the slow hash: parallel guesses cannot all pass the check first.
    const attempt = throttle.reserve(user.username, address);
    const ok = await verifyPassword(user.passwordHash, password);
    return transaction(async () => {
      // The password may have been changed while it was being verified.
      const fresh = await users.findById(user.id);
      // A wrong password keeps the reserved attempt: it is the recorded failure.
      if (!ok || !fresh || fresh.passwordHash !== user.passwordHash) {
        throw new ReauthenticationRequired(WRONG_CURRENT_PASSWORD);
      }
      attempt.release();
      return then();
    });
  }

  function isFresh(session: SessionRow): boolean {
    const at = session.reauthenticatedAt?.getTime();
    return at !== undefined && now() - at < REAUTHENTICATION_WINDOW_MS;
  }

  /** Checks the password and records the re-authentication on the session; until when it lasts. */
  async function reauthenticate(
    session: SessionRow,
    user: UserRow,
    password: string,
    address: string,
  ): Promise<Date> {
    const at = await checkPassword(user, password, address, () =>
      sessions.markReauthenticated(session.idHash),
    );
    // The session ended meanwhile (signed out, or the password changed elsewhere).
    if (!at) throw unauthorized();
    session.reauthenticatedAt = at;
    return new Date(at.getTime() + REAUTHENTICATION_WINDOW_MS);
  }

  return {
    reauthenticate,

    /**
     * Passes when `password` is right (and records it) or, without one, when this session was
     * re-authenticated within the window; otherwise throws a ReauthenticationRequired.
     */
    async require(
      session: SessionRow,
      user: UserRow,
      password: string | undefined,
      address: string,
    ): Promise<void> {
      if (password !== undefined) {
        await reauthenticate(session, user, password, address);
      } else if (!isFresh(session)) {
        throw new ReauthenticationRequired(REAUTHENTICATION_REQUIRED);
      }
    },

    /**
     * A second factor was added, removed, turned on or off: ends the user's sessions except
     * `keepSessionIdHash` (the one that made the change, when it is the user's own).
     */
    secondFactorChanged(userId: number, keepSessionIdHash?: string): Promise<number> {
      return sessions.endAllForUser(userId, keepSessionIdHash);
    },
  };
}

export type ReauthService = ReturnType<typeof createReauthService>;
