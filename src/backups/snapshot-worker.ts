// A backup's database copy (src/backups/snapshot.ts), in its own thread with its own connection:
// VACUUM INTO writes a consistent snapshot of the database (as of the read transaction it runs
// in) to a new file. In WAL mode that read never blocks the server's writes, and in this thread
// it never blocks the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { source, target } = workerData as { source: string; target: string };
try {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  parentPort!.postMessage({ ok: true });
} catch (error) {
  parentPort!.postMessage({
    ok: false,
    error: error instanceof Error ? error.message : String(error),
  });
}
