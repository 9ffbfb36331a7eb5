import { DomainError } from '../domain-error.ts';

const WINDOW_MS = 60_000;

/** Windows kept at most; past it, the ones that have ended are dropped. */
const MAX_WINDOWS = 10_000;

/**
 * The rate limit of access-token requests: at most `perMinute` requests in each minute per
 * user, all their tokens together (more tokens are not more requests), counted from the first
 * request of that minute. Kept in memory: a restart forgets the counts, which errs on the side
 * of the caller.
 */
export function createTokenRateLimit(perMinute: number, now: () => number = Date.now) {
  const windows = new Map<number, { start: number; count: number }>();
  return {
    /** Counts one token request of the user; throws a 429 with Retry-After past the limit. */
    take(userId: number): void {
      const t = now();
      let window = windows.get(userId);
      if (!window || t - window.start >= WINDOW_MS) {
        if (!window && windows.size >= MAX_WINDOWS) {
          for (const [id, w] of windows) if (t - w.start >= WINDOW_MS) windows.delete(id);
        }
        window = { start: t, count: 0 };
        windows.set(userId, window);
      }
      if (window.count >= perMinute) {
        const retryAfterSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - t) / 1000));
        throw new DomainError(
          429,
          `Your access tokens have made too many requests (at most ${perMinute} a minute, all your tokens together); try again in ${retryAfterSeconds} s`,
          { retryAfterSeconds },
        );
      }
      window.count++;
    },
  };
}

export type TokenRateLimit = ReturnType<typeof createTokenRateLimit>;
