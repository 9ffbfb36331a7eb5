import { Temporal as TemporalPolyfill } from '@js-temporal/polyfill';

// Node 24 has no global Temporal. Fedify 2.3.6 and @fedify/vocab import @js-temporal/polyfill
// themselves, while their type declarations name the global Temporal types (lib
// esnext.temporal); the two are the same at run time but not to the type checker. This module
// is the one place that bridges them.

/**
 * Milliseconds in a Temporal.Duration that Fedify hands us (a TTL or a queue delay). Only the
 * instance's own methods are used, so a polyfill or a native Duration both work. Calendar units
 * (years, months, weeks) are measured from now in UTC. Negative durations count as zero.
 */
export function durationToMs(duration: Temporal.Duration): number {
  let ms: number;
  try {
    ms = duration.total({ unit: 'millisecond' });
  } catch {
    const now = new Date().toISOString().replace('Z', '+00:00[UTC]');
    ms = duration.total({ unit: 'millisecond', relativeTo: now });
  }
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : 0;
}

/** A Temporal.Instant (as @fedify/vocab expects it) for a Date. */
export function instantFromDate(date: Date): Temporal.Instant {
  return TemporalPolyfill.Instant.fromEpochMilliseconds(
    date.getTime(),
  ) as unknown as Temporal.Instant;
}

/** A Temporal.Duration (as Fedify's APIs expect it) of so many milliseconds. */
export function durationFromMs(milliseconds: number): Temporal.Duration {
  return TemporalPolyfill.Duration.from({ milliseconds }) as unknown as Temporal.Duration;
}
