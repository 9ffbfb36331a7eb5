import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { logger } from '../logger.ts';
import { HOLDS_FOLDER, holdDeletions } from '../media/deletion-hold.ts';

/**
 * A consistent copy of the vault's state in a staging folder: the database (VACUUM INTO, in a
 * worker thread) and hard links to the uploaded files. Uploads are written before their rows
 * are committed, and no upload is deleted while the copy is made (src/media/deletion-hold.ts),
 * so the files are linked before and after the database copy: every file a row of the copy
 * names is among them.
 */
export interface Snapshot {
  /** The staging folder: vault.sqlite and uploads/. */
  dir: string;
  databaseFile: string;
  /** Paths relative to the uploads folder ('<name>.jpg', 'avatars/<name>.jpg'). */
  files: string[];
  users: number;
  entries: number;
  /** created_at of the newest applied migration (drizzle's folderMillis); 0 when none. */
  migrationMillis: number;
}

/** Copies the live database into `target` (a consistent snapshot), off the event loop. */
export function copyDatabase(source: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./snapshot-worker.ts', import.meta.url), {
      workerData: { source, target },
    });
    worker.once('message', (result: { ok: boolean; error?: string }) => {
      void worker.terminate();
      if (result.ok) resolve();
      else reject(new Error(`The database copy failed: ${result.error}`));
    });
    worker.once('error', reject);
  });
}

/**
 * Every file under the uploads folder but unfinished writes (`*.tmp`) and the markers of
 * deletion holds, relative to it.
 */
export async function listUploads(uploadsDir: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(uploadsDir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const holds = path.join(uploadsDir, HOLDS_FOLDER);
  return entries
    .filter((d) => d.isFile() && !d.name.endsWith('.tmp') && d.parentPath !== holds)
    .map((d) =>
      path.relative(uploadsDir, path.join(d.parentPath, d.name)).split(path.sep).join('/'),
    );
}

/**
 * Hard-links (copies across file systems) what is not linked yet; a file gone meanwhile is
 * skipped. In the thread pool, a few at a time, so that the event loop stays free.
 */
async function linkUploads(uploadsDir: string, stagingUploads: string, linked: Set<string>) {
  const pending = (await listUploads(uploadsDir)).filter((file) => !linked.has(file));
  const folders = new Set(pending.map((file) => path.dirname(path.join(stagingUploads, file))));
  for (const folder of folders) await fs.promises.mkdir(folder, { recursive: true });
  async function link(file: string) {
    const from = path.join(uploadsDir, file);
    const to = path.join(stagingUploads, file);
    try {
      try {
        await fs.promises.link(from, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await fs.promises.copyFile(from, to);
      }
      linked.add(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const BATCH = 16;
  for (let i = 0; i < pending.length; i += BATCH) {
    await Promise.all(pending.slice(i, i + BATCH).map(link));
  }
}

/** What the copied database references and counts. */
function readCopy(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const referenced = db
      .prepare(
        `select photo_path from beverages where photo_path is not null
         union select avatar_path from users where avatar_path is not null
         union select photo_path from remote_entries where photo_path is not null
         union select photo_path from tastings where photo_path is not null`,
      )
      .pluck()
      .all() as string[];
    const count = (table: string) =>
      db.prepare(`select count(*) from ${table}`).pluck().get() as number;
    const migrationMillis =
      (db.prepare('select max(created_at) from __drizzle_migrations').pluck().get() as
        number | null) ?? 0;
    return {
      // Stored paths are 'media/<file>'; the file lives at uploads/<file>.
      referenced: referenced.map((p) => p.replace(/^media\//, '')),
      users: count('users'),
      entries: count('beverages'),
      migrationMillis: Number(migrationMillis),
    };
  } finally {
    db.close();
  }
}

export async function takeSnapshot(options: {
  databasePath: string;
  uploadsDir: string;
  stagingDir: string;
  /** How the database is copied (copyDatabase; a test wraps it to write meanwhile). */
  copy?: typeof copyDatabase;
}): Promise<Snapshot> {
  fs.rmSync(options.stagingDir, { recursive: true, force: true });
  const stagingUploads = path.join(options.stagingDir, 'uploads');
  fs.mkdirSync(stagingUploads, { recursive: true });
  const databaseFile = path.join(options.stagingDir, 'vault.sqlite');
  const linked = new Set<string>();
  const hold = holdDeletions(options.uploadsDir);
  try {
    await linkUploads(options.uploadsDir, stagingUploads, linked);
    await (options.copy ?? copyDatabase)(options.databasePath, databaseFile);
    await linkUploads(options.uploadsDir, stagingUploads, linked);
  } finally {
    hold.release();
  }
  const copy = readCopy(databaseFile);
  const missing = copy.referenced.filter((file) => !linked.has(file));
  if (missing.length > 0) {
    logger.warn(
      'The backup lacks {count} files its database names: they are missing from the uploads folder ({missing})',
      { count: missing.length, missing: missing.slice(0, 10).join(', ') },
    );
  }
  return {
    dir: options.stagingDir,
    databaseFile,
    files: [...linked].sort(),
    users: copy.users,
    entries: copy.entries,
    migrationMillis: copy.migrationMillis,
  };
}
