import { AsyncLocalStorage } from 'node:async_hooks';
import { configure, getConsoleSink, getLogger } from '@logtape/logtape';

/** The app's logger (LogTape, which Fedify also logs through). */
export const logger = getLogger(['vault']);

export async function configureLogging(level: 'debug' | 'info' | 'warning' | 'error') {
  await configure({
    reset: true,
    contextLocalStorage: new AsyncLocalStorage(),
    sinks: { console: getConsoleSink() },
    loggers: [
      { category: ['vault'], lowestLevel: level, sinks: ['console'] },
      {
        category: ['fedify'],
        lowestLevel: level === 'debug' ? 'info' : 'warning',
        sinks: ['console'],
      },
      { category: ['logtape', 'meta'], lowestLevel: 'warning', sinks: ['console'] },
    ],
  });
}
