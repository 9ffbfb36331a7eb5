import { conflict } from '../domain-error.ts';
import type { IdempotencyRepository } from './repository.ts';

/** How long a key answers its first result. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;
/** Expired keys are pruned on a claim at most this often. */
const PRUNE_INTERVAL_MS = 60_000;

export const KEY_IN_PROGRESS =
  'A request with this Idempotency-Key is still being processed; try again once it has finished';
export const KEY_REUSED =
  'This Idempotency-Key was already used for a different request; send a new key with a new request';

/** What to do with a write that came with a key. */
export type IdempotentStart =
  /** The key is new: run the request, then `finish` or `release` this id. */
  | { kind: 'run'; id: number }
  /** The same request was answered before: send this again. */
  | { kind: 'replay'; status: number; body: string | null };

/**
 * Idempotency keys of writes (the `Idempotency-Key` header): the first request with a key runs
 * and its answer is kept 24 hours; the same request with the same key (same user) answers that
 * again; a different request with it, or a second one while the first is running, is a 409.
 */
export function createIdempotencyService(deps: { repo: IdempotencyRepository; now: () => number }) {
  const { repo, now } = deps;
  let lastPrune = -Infinity;
  return {
    async start(userId: number, key: string, requestHash: string): Promise<IdempotentStart> {
      const at = now();
      if (at - lastPrune >= PRUNE_INTERVAL_MS) {
        lastPrune = at;
        await repo.pruneBefore(at - IDEMPOTENCY_KEY_TTL_MS);
      }
      const { claimed, record } = await repo.claim(
        userId,
        key,
        requestHash,
        at,
        at - IDEMPOTENCY_KEY_TTL_MS,
      );
      if (claimed) return { kind: 'run', id: record.id };
      if (record.status === null) throw conflict(KEY_IN_PROGRESS);
      if (record.requestHash !== requestHash) throw conflict(KEY_REUSED);
      return { kind: 'replay', status: record.status, body: record.body };
    },
    /** Keeps the answer of the request that claimed `id`. */
    finish(id: number, status: number, body: string | null): Promise<void> {
      return repo.complete(id, status, body);
    },
    /**
     * Forgets the keys of requests a stop or a crash cut off, at start (when no request is
     * running). Such a key never finishes: kept, it would answer 'still being processed' for a
     * day and hold up an offline queue that sends it again. Sending it again runs it: right for
     * a request cut off before its write committed (it changed nothing), which is where nearly
     * all of its time goes; one cut off in the moment between its commit and keeping its answer
     * is applied twice. Answers how many keys were forgotten.
     */
    forgetUnfinished(): Promise<number> {
      return repo.deletePending();
    },
    /** Forgets a claimed key whose answer is not kept (a server error): it may be sent again. */
    release(id: number): Promise<void> {
      return repo.delete(id);
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
