import { DomainError } from '../domain-error.ts';

export interface ThrottleLimits {
  /** Failed attempts allowed for one account from one client address within `windowMs`. */
  perAccount: number;
  /** Failed attempts allowed from one client address, all accounts together, within `windowMs`. */
  perAddress: number;
  windowMs: number;
  /**
   * Failed attempts allowed for one account from all addresses together within
   * `ceilingWindowMs`. Beyond it only addresses the account signed in from before may try.
   */
  accountCeiling?: number;
  ceilingWindowMs?: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perAccount: 5,
  perAddress: 20,
  windowMs: 15 * 60_000,
  accountCeiling: 100,
  ceilingWindowMs: 60 * 60_000,
};

/** How long, and how many, addresses a successful sign-in is remembered for per account. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;
const KNOWN_ADDRESSES_PER_ACCOUNT = 10;
/** Every this many reservations, windows of keys nobody asked about again are dropped. */
const SWEEP_EVERY = 500;

/**
 * The address a count is kept for. An IPv6 client usually holds a whole /64 network, so its
 * addresses count as one; IPv4 (also written IPv4-mapped) and anything else as given.
 */
export function throttledAddress(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  const groups = tail === undefined ? left : [...left, ...zeros, ...right];
  const prefix = groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}

/**
 * One reserved guess. It counts as a failure from the moment it is taken, so that parallel
 * requests cannot all pass the check before any failure is recorded. A wrong guess simply
 * keeps it.
 */
export interface Attempt {
  /** The check passed or never ran (not a guess after all): gives the slot back. */
  release(): void;
  /**
   * The sign-in completed: gives the slot back, clears this address's failures for the
   * account and remembers the address as one the account signs in from.
   */
  succeed(): void;
}

/**
 * Throttles failed sign-in attempts (passwords, codes, security keys, password re-checks) in
 * memory (the vault is one process), keyed so that an attacker cannot lock the owner out:
 * per account and address, per address, and a per-account ceiling that addresses the account
 * signed in from before are exempt from.
 */
export function createLoginThrottle(
  limits: ThrottleLimits = DEFAULT_LIMITS,
  now: () => number = Date.now,
) {
  const ceiling = limits.accountCeiling ?? DEFAULT_LIMITS.accountCeiling!;
  const ceilingWindowMs = limits.ceilingWindowMs ?? DEFAULT_LIMITS.ceilingWindowMs!;
  /** Times of failures (and of guesses in flight) per key. */
  const failures = new Map<string, number[]>();
  /** Per account: address → time of the last completed sign-in from it. */
  const known = new Map<string, Map<string, number>>();
  let reservations = 0;

  function recent(key: string, windowMs: number): number[] {
    const list = failures.get(key);
    if (!list) return [];
    const since = now() - windowMs;
    const kept = list.filter((t) => t > since);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  function check(key: string, limit: number, windowMs: number) {
    const list = recent(key, windowMs);
    if (list.length < limit) return;
    const oldest = list[list.length - limit] ?? now();
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + windowMs - now()) / 1000));
    const minutes = Math.ceil(retryAfterSeconds / 60);
    throw new DomainError(
      429,
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { retryAfterSeconds },
    );
  }

  function isKnown(account: string, address: string): boolean {
    const at = known.get(account)?.get(address);
    return at !== undefined && now() - at < KNOWN_ADDRESS_MS;
  }

  function remember(account: string, address: string) {
    const addresses = known.get(account) ?? new Map<string, number>();
    addresses.delete(address);
    addresses.set(address, now());
    // A Map keeps insertion order: the first entry is the least recently used.
    while (addresses.size > KNOWN_ADDRESSES_PER_ACCOUNT) {
      addresses.delete(addresses.keys().next().value!);
    }
    known.set(account, addresses);
  }

  function sweep() {
    const longest = Math.max(limits.windowMs, ceilingWindowMs);
    for (const key of [...failures.keys()]) recent(key, longest);
    for (const [account, addresses] of known) {
      for (const [address, at] of addresses) {
        if (now() - at >= KNOWN_ADDRESS_MS) addresses.delete(address);
      }
      if (addresses.size === 0) known.delete(account);
    }
  }

  function remove(key: string, at: number) {
    const list = failures.get(key);
    const index = list?.lastIndexOf(at) ?? -1;
    if (list && index >= 0) list.splice(index, 1);
  }

  const pairKey = (account: string, address: string) => `pair:${account}\n${address}`;
  const addressKey = (address: string) => `address:${address}`;
  const accountKey = (account: string) => `account:${account}`;

  return {
    /**
     * Takes a slot for one guess at `account` from `address`, synchronously, or throws a 429
     * DomainError (with retryAfterSeconds) when a limit is reached. Call it before the slow
     * check (a password hash, a key assertion) and settle the attempt after it.
     */
    reserve(account: string, clientAddress: string): Attempt {
      const address = throttledAddress(clientAddress);
      if (++reservations % SWEEP_EVERY === 0) sweep();
      check(pairKey(account, address), limits.perAccount, limits.windowMs);
      check(addressKey(address), limits.perAddress, limits.windowMs);
      if (!isKnown(account, address)) check(accountKey(account), ceiling, ceilingWindowMs);
      const at = now();
      const keys = [pairKey(account, address), addressKey(address), accountKey(account)];
      for (const key of keys) {
        const list = failures.get(key) ?? [];
        list.push(at);
        failures.set(key, list);
      }
      let settled = false;
      const release = () => {
        if (settled) return;
        settled = true;
        for (const key of keys) remove(key, at);
      };
      return {
        release,
        succeed() {
          release();
          failures.delete(pairKey(account, address));
          remember(account, address);
        },
      };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Runs a throttled check: a 'wrong' outcome keeps the reserved attempt (the recorded
 * failure); anything else, an error included, was not a guess and gives it back.
 */
export async function settle<T>(
  attempt: Attempt,
  check: () => Promise<T | 'wrong'>,
): Promise<T | 'wrong'> {
  let outcome: T | 'wrong';
  try {
    outcome = await check();
  } catch (error) {
    attempt.release();
    throw error;
  }
  if (outcome !== 'wrong') attempt.release();
  return outcome;
}
