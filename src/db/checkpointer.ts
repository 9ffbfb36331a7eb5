import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { logger } from '../logger.ts';
import { writeCounterOf } from './write-counter.ts';

/** How often written pages are copied from the write-ahead log into the database file. */
const INTERVAL_MS = 1000;

/**
 * Checkpoints the write-ahead log in a worker thread instead of inside commits. By default
 * SQLite copies the log into the database (and fsyncs it) in whichever commit takes the log
 * past 1,000 pages: that stalled the event loop for 30 to 150 ms every few commits once a
 * fan-out to a thousand followers wrote 4 MB of log per entry, and the stall landed on whatever
 * request committed next. Here the server's connection never checkpoints; once a second, if
 * anything was written, a worker thread with its own connection runs a PASSIVE checkpoint
 * (which never blocks the server's reads or writes). The worker starts on the first write, so
 * an idle vault does not pay for it. If the worker fails, SQLite's own checkpoints come back.
 */
export function startBackgroundCheckpoints(sqlite: Database.Database, file: string) {
  const counter = writeCounterOf(sqlite);
  if (!counter || file === ':memory:') return { stop: async () => {} };
  sqlite.pragma('wal_autocheckpoint = 0');
  let worker: Worker | undefined;
  let busy = false;
  let seen = counter.writes;
  let failed = false;

  const fallBack = (error: unknown) => {
    if (failed) return;
    failed = true;
    clearInterval(timer);
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
    logger.warn('Background checkpoints stopped ({error}); SQLite checkpoints in commits again.', {
      error,
    });
  };

  function spawn(): Worker {
    const thread = new Worker(new URL('./checkpoint-worker.ts', import.meta.url), {
      workerData: { file },
    });
    thread.unref();
    thread.on('message', (result: { ok: boolean; error?: string }) => {
      busy = false;
      if (!result.ok) fallBack(result.error);
    });
    thread.on('error', fallBack);
    return thread;
  }

  const timer = setInterval(() => {
    if (busy || counter.writes === seen) return;
    seen = counter.writes;
    worker ??= spawn();
    busy = true;
    worker.postMessage('checkpoint');
  }, INTERVAL_MS);
  timer.unref();

  return {
    /** Stops the worker; the last connection to close checkpoints what is left. */
    async stop(): Promise<void> {
      clearInterval(timer);
      await worker?.terminate();
      if (sqlite.open && !failed) sqlite.pragma('wal_autocheckpoint = 1000');
    },
  };
}
