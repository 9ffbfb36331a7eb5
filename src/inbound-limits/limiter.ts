import { DomainError } from '../domain-error.ts';
import { logger } from '../logger.ts';

/** What a remote server sends that the vault stores: entries, replies (comments), cheers. */
export const INBOUND_KINDS = ['entry', 'reply', 'cheer'] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];

/** The bounds (src/config.ts; docs/federation.md, "Limits"). */
export interface InboundLimits {
  /** The length of one counting window. */
  windowMs: number;
  /** Activities of one kind one actor may send per window. */
  perActor: number;
  /** Activities of one kind all actors of one server (host with port) may send per window. */
  perServer: number;
  /** Entries of one remote actor the vault keeps at most. */
  storedEntriesPerActor: number;
}

interface Counter {
  start: number;
  count: number;
  /** Whether a refusal was logged in this window (logged once per window). */
  logged: boolean;
}

const PLURAL: Record<InboundKind, string> = { entry: 'entries', reply: 'replies', cheer: 'cheers' };

/** How many counters are kept before the expired ones are swept away. */
const SWEEP_ABOVE = 10_000;

/**
 * Per-actor and per-server rate limits, and a per-actor volume cap, on what remote servers
 * store here. Counting is in fixed windows per kind, per actor and per server, kept in memory
 * (a restart starts them afresh; the volume cap is read from the database and holds anyway).
 *
 * `check` answers without counting (before the signature is verified: a forged delivery must
 * not spend a real actor's allowance); `take` counts one activity that was accepted. Both
 * throw a 429 DomainError with Retry-After beyond a limit, and log the refusal once per actor
 * or server per window, not once per request.
 */
export function createInboundLimiter(
  limits: InboundLimits,
  options: {
    /** The entries stored for a remote actor (the volume cap); none counted when absent. */
    storedEntries?: (actorUri: string) => Promise<number>;
    now?: () => number;
  } = {},
) {
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  let sweptAt = 0;

  function counter(key: string, at: number): Counter {
    let found = counters.get(key);
    if (!found || at - found.start >= limits.windowMs) {
      found = { start: at, count: 0, logged: false };
      counters.set(key, found);
      if (counters.size > SWEEP_ABOVE && at - sweptAt > 60_000) sweep(at);
    }
    return found;
  }

  function sweep(at: number) {
    sweptAt = at;
    for (const [key, value] of counters) {
      if (at - value.start >= limits.windowMs) counters.delete(key);
    }
  }

  function refuse(c: Counter, at: number, kind: InboundKind, who: string, reason: string) {
    const retryAfterSeconds = Math.max(1, Math.ceil((c.start + limits.windowMs - at) / 1000));
    const what = PLURAL[kind];
    if (!c.logged) {
      c.logged = true;
      logger.warn('Refusing incoming {what} from {who}: {reason} (logged once per window)', {
        what,
        who,
        reason,
      });
    }
    return new DomainError(429, `Refused: ${what} from ${who}, ${reason}. Try again later.`, {
      retryAfterSeconds,
    });
  }

  /** The refusal of the rate limits for one more activity, or undefined within them. */
  function rateVerdict(kind: InboundKind, actorUri: string, host: string, at: number) {
    const hour = limits.windowMs === 3_600_000 ? 'an hour' : `${limits.windowMs / 1000} s`;
    const actor = counter(`${kind} actor ${actorUri}`, at);
    if (actor.count >= limits.perActor) {
      return refuse(actor, at, kind, actorUri, `more than ${limits.perActor} in ${hour}`);
    }
    const server = counter(`${kind} server ${host}`, at);
    if (server.count >= limits.perServer) {
      return refuse(server, at, kind, host, `more than ${limits.perServer} in ${hour}`);
    }
    return undefined;
  }

  /**
   * The refusal for one more activity, or undefined when it is within every limit; with
   * `count`, an activity within them is counted. The volume cap reads the database: after that
   * await the rates are checked again, and counted in the same synchronous step, so that
   * concurrent deliveries cannot all pass the same last slot.
   */
  async function verdict(
    kind: InboundKind,
    actorUri: string,
    host: string,
    count: boolean,
  ): Promise<DomainError | undefined> {
    let at = now();
    let refusal = rateVerdict(kind, actorUri, host, at);
    if (refusal) return refusal;
    if (kind === 'entry' && options.storedEntries) {
      const stored = await options.storedEntries(actorUri);
      at = now();
      refusal = rateVerdict(kind, actorUri, host, at);
      if (refusal) return refusal;
      if (stored >= limits.storedEntriesPerActor) {
        const volume = counter(`volume ${actorUri}`, at);
        const reason = `${limits.storedEntriesPerActor} of its entries are stored here already`;
        return refuse(volume, at, kind, actorUri, reason);
      }
    }
    if (count) {
      counter(`${kind} actor ${actorUri}`, at).count++;
      counter(`${kind} server ${host}`, at).count++;
    }
    return undefined;
  }

  return {
    /** Throws the 429 one more activity would get; counts nothing. */
    async check(kind: InboundKind, actorUri: string, host: string): Promise<void> {
      const refusal = await verdict(kind, actorUri, host, false);
      if (refusal) throw refusal;
    },
    /** Counts one activity from `actorUri` on `host`; throws a 429 (uncounted) beyond a limit. */
    async take(kind: InboundKind, actorUri: string, host: string): Promise<void> {
      const refusal = await verdict(kind, actorUri, host, true);
      if (refusal) throw refusal;
    },
  };
}

export type InboundLimiter = ReturnType<typeof createInboundLimiter>;
