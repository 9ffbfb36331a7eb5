import { DomainError } from '../domain-error.ts';

interface Window {
  failures: number[];
}

export interface ThrottleLimits {
  /** Failed attempts allowed per account within the window. */
  perAccount: number;
  /** Failed attempts allowed per client address within the window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perAccount: 5,
  perAddress: 20,
  windowMs: 15 * 60_000,
};

/**
 * Throttles failed sign-in attempts (passwords now, second-factor codes later) per account and
 * per client address, in memory: the vault is one process.
 */
export function createLoginThrottle(
  limits: ThrottleLimits = DEFAULT_LIMITS,
  now: () => number = Date.now,
) {
  const byKey = new Map<string, Window>();

  function recent(key: string): number[] {
    const w = byKey.get(key);
    if (!w) return [];
    const since = now() - limits.windowMs;
    w.failures = w.failures.filter((t) => t > since);
    if (w.failures.length === 0) byKey.delete(key);
    return w.failures;
  }

  function check(key: string, limit: number) {
    const failures = recent(key);
    if (failures.length >= limit) {
      const oldest = failures[failures.length - limit] ?? now();
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + limits.windowMs - now()) / 1000));
      const minutes = Math.ceil(retryAfterSeconds / 60);
      throw new DomainError(
        429,
        `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { retryAfterSeconds },
      );
    }
  }

  const accountKey = (account: string) => `account:${account}`;
  const addressKey = (address: string) => `address:${address}`;

  return {
    /** Throws a 429 DomainError when either the account or the address is over its limit. */
    assertAllowed(account: string, address: string): void {
      check(accountKey(account), limits.perAccount);
      check(addressKey(address), limits.perAddress);
    },
    recordFailure(account: string, address: string): void {
      for (const key of [accountKey(account), addressKey(address)]) {
        const w = byKey.get(key) ?? { failures: [] };
        w.failures.push(now());
        byKey.set(key, w);
      }
    },
    recordSuccess(account: string): void {
      byKey.delete(accountKey(account));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
