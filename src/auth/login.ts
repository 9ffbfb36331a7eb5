import type { UserRow } from '../db/schema/index.ts';
import { DomainError } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import { verifyPassword } from './passwords.ts';
import type { LoginThrottle } from './throttle.ts';

/**
 * What the password step leads to. The second-factor issue adds `requiresWebAuthn` and
 * `requiresTotp` outcomes (a pending login, never a session) beside `signedIn`.
 */
export type LoginOutcome = { kind: 'signedIn'; user: UserRow };

export const INVALID_CREDENTIALS = 'Invalid username or password';

export function createLoginService(users: UserRepository, throttle: LoginThrottle) {
  return {
    async withPassword(
      username: string,
      password: string,
      clientAddress: string,
    ): Promise<LoginOutcome> {
      const account = username.trim().toLowerCase();
      throttle.assertAllowed(account, clientAddress);
      const user = users.findByUsername(account);
      const ok = await verifyPassword(user?.passwordHash, password);
      if (!user || !ok) {
        throttle.recordFailure(account, clientAddress);
        throw new DomainError(401, INVALID_CREDENTIALS);
      }
      throttle.recordSuccess(account);
      return { kind: 'signedIn', user };
    },
  };
}

export type LoginService = ReturnType<typeof createLoginService>;
