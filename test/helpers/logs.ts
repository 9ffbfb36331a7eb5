import { AsyncLocalStorage } from 'node:async_hooks';
import { configure, type LogRecord } from '@logtape/logtape';
import { loggerLevels, type LogLevel } from '../../src/logger.ts';

/**
 * Sends the log, configured as in production at `level`, into `records` (emptied first).
 * Undo with LogTape's reset() after the tests.
 */
export async function captureLogs(level: LogLevel, records: LogRecord[]): Promise<void> {
  records.length = 0;
  await configure({
    reset: true,
    contextLocalStorage: new AsyncLocalStorage(),
    sinks: { capture: (record) => records.push(record) },
    loggers: loggerLevels(level, 'capture'),
  });
}
