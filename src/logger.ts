import { AsyncLocalStorage } from 'node:async_hooks';
import {
  configure,
  getConsoleSink,
  getLogger,
  getTextFormatter,
  type LogRecord,
} from '@logtape/logtape';

/** The app's logger (LogTape, which Fedify also logs through). */
export const logger = getLogger(['vault']);

/** No log line is longer than this: what a client sends cannot grow the log without bound. */
export const MAX_LOG_LINE = 1000;

const text = getTextFormatter({ timestamp: 'time', level: 'ABBR' });

/** One line per record, cut at MAX_LOG_LINE characters. */
export function boundedLine(record: LogRecord): string {
  const line = text(record).trimEnd();
  return line.length > MAX_LOG_LINE ? `${line.slice(0, MAX_LOG_LINE - 1)}…` : line;
}

/**
 * Everything goes to the console (stdout/stderr, the container's log), one bounded line a
 * record. Client mistakes (4xx) are logged at debug only (src/http/errors.ts); Fedify's
 * per-request lines, which echo whatever path a client asks for, only at debug too.
 */
export async function configureLogging(level: LogLevel) {
  await configure({
    reset: true,
    contextLocalStorage: new AsyncLocalStorage(),
    sinks: { console: getConsoleSink({ formatter: boundedLine }) },
    loggers: loggerLevels(level, 'console'),
  });
}

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/** Which categories log from which level, into `sink` (tests use it with a capturing sink). */
export function loggerLevels(level: LogLevel, sink: string) {
  return [
    { category: ['vault'], lowestLevel: level, sinks: [sink] },
    {
      category: ['fedify'],
      lowestLevel: level === 'debug' ? ('info' as const) : ('warning' as const),
      sinks: [sink],
    },
    {
      category: ['fedify', 'federation', 'http'],
      lowestLevel: level === 'debug' ? ('debug' as const) : ('fatal' as const),
      sinks: [sink],
    },
    { category: ['logtape', 'meta'], lowestLevel: 'warning' as const, sinks: [sink] },
  ];
}
