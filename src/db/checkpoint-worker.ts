// The background checkpointer's thread (src/db/checkpointer.ts): its own connection to the
// vault's SQLite file, copying the write-ahead log into the database when asked.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database((workerData as { file: string }).file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');

parentPort!.on('message', () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort!.postMessage({ ok: true });
  } catch (error) {
    parentPort!.postMessage({ ok: false, error: String(error) });
  }
});
