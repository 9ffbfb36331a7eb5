import fs from 'node:fs';
import path from 'node:path';
import { createBeverageRepository } from '../beverages/repository.ts';
import { createTastingRepository } from '../tastings/repository.ts';
import type { Database } from '../db/database.ts';
import { logger } from '../logger.ts';
import type { UserRepository } from '../users/repository.ts';
import { deletionsHeld } from './deletion-hold.ts';
import { AVATAR, PHOTO, STORED_FILE_NAME, TEMP_SUFFIX } from './images.ts';

/**
 * A file younger than this is never swept, referenced or not: it may belong to an upload whose
 * row is not committed yet (the file is written first, then the row).
 */
export const SWEEP_GRACE_MS = 60 * 60_000;

/** The sweep starts this long after the server listens, so it never delays the first answer. */
export const SWEEP_DELAY_MS = 1_000;

export interface SweepOptions {
  uploadsDir: string;
  /** Every stored path ('media/…') a row references. Read once, before the folders are listed. */
  referencedPaths: () => Iterable<string> | Promise<Iterable<string>>;
  graceMs?: number;
  now?: () => number;
  /** Checked before each file: true stops the sweep (the server has closed). */
  stopped?: () => boolean;
}

export interface SweepResult {
  /** `.tmp` files: writes a crash interrupted. */
  unfinished: number;
  /** Whole images no row references: a crash came between the file and the row. */
  unreferenced: number;
  /** Files left: referenced, or younger than the grace period. */
  kept: number;
}

/**
 * Deletes what a crash can leave in the uploads folders: `*.tmp` files and images no row
 * references, both only when older than the grace period (by modification time). Only names
 * the vault gives its files are considered; anything else is left alone. The folders are read
 * with `opendir` and every file is handled with its own awaited calls, so thousands of files
 * never hold the event loop for long.
 */
export async function sweepUploads(options: SweepOptions): Promise<SweepResult> {
  const cutoff = (options.now ?? Date.now)() - (options.graceMs ?? SWEEP_GRACE_MS);
  const referenced = new Set(await options.referencedPaths());
  const result: SweepResult = { unfinished: 0, unreferenced: 0, kept: 0 };
  for (const folder of [PHOTO.folder, AVATAR.folder]) {
    const dir = path.join(options.uploadsDir, folder);
    let entries: fs.Dir;
    try {
      entries = await fs.promises.opendir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for await (const entry of entries) {
      if (options.stopped?.()) break; // leaving the loop closes the directory
      if (!entry.isFile() || !STORED_FILE_NAME.test(entry.name)) continue;
      const unfinished = entry.name.endsWith(TEMP_SUFFIX);
      if (!unfinished && referenced.has(`media/${folder}${entry.name}`)) {
        result.kept++;
        continue;
      }
      const file = path.join(dir, entry.name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (!stat) continue; // gone meanwhile
      // While a backup is being made nothing is deleted (src/media/deletion-hold.ts).
      if (stat.mtimeMs >= cutoff || deletionsHeld(options.uploadsDir)) {
        result.kept++;
        continue;
      }
      await fs.promises.rm(file, { force: true });
      result[unfinished ? 'unfinished' : 'unreferenced']++;
    }
  }
  return result;
}

/**
 * Every stored file something refers to: entry and tasting photos, avatars, copies of remote
 * photos.
 */
export async function referencedUploads(ctx: {
  database: { database: Database };
  users: UserRepository;
  remoteEntries: { allPhotoPaths(): Promise<string[]> };
}): Promise<string[]> {
  return [
    ...(await createBeverageRepository(ctx.database.database).allPhotoPaths()),
    ...(await createTastingRepository(ctx.database.database).allPhotoPaths()),
    ...(await ctx.users.allAvatarPaths()),
    ...(await ctx.remoteEntries.allPhotoPaths()),
  ];
}

export interface UploadsSweeps {
  /** Cancels the sweeps to come (one under way stops by itself once the database closes). */
  stop(): void;
  /** Resolves once the sweep under way, if any, has finished. */
  settled(): Promise<void>;
}

/**
 * Sweeps the uploads folder SWEEP_DELAY_MS after start (what a crash of the last run left), then
 * every `intervalMs` while the server runs (what a write that failed half-way, or a crash of a
 * process sharing the folder, leaves meanwhile). In the background: unref'd timers, so they
 * neither delay the first answer nor keep the process alive, and one sweep at a time. The
 * sweep at start logs its counts at info level, a later one only when it removed something.
 * Sweeping stops by itself when the server has closed the database.
 */
export function startUploadsSweeps(
  ctx: {
    config: { uploadsDir: string };
    database: { database: Database };
    users: UserRepository;
    remoteEntries: { allPhotoPaths(): Promise<string[]> };
  },
  intervalMs: number,
): UploadsSweeps {
  const closed = () => ctx.database.database.isClosed();
  let running: Promise<void> | null = null;
  let first = true;
  const sweep = () => {
    if (closed() || running) return;
    const atStart = first;
    first = false;
    running = sweepUploads({
      uploadsDir: ctx.config.uploadsDir,
      referencedPaths: () => referencedUploads(ctx),
      stopped: closed,
    })
      .then(
        (counts) => {
          if (closed()) return;
          const line =
            'Swept the uploads folder: removed {unfinished} unfinished and {unreferenced} unreferenced files, kept {kept}';
          if (atStart || counts.unfinished + counts.unreferenced > 0)
            logger.info(line, { ...counts });
          else logger.debug(line, { ...counts });
        },
        (error: unknown) => {
          if (!closed()) logger.warn('Sweeping the uploads folder failed: {error}', { error });
        },
      )
      .finally(() => {
        running = null;
      });
  };
  const atStart = setTimeout(sweep, SWEEP_DELAY_MS);
  atStart.unref();
  const periodic = setInterval(sweep, intervalMs);
  periodic.unref();
  return {
    stop() {
      clearTimeout(atStart);
      clearInterval(periodic);
    },
    settled: () => running ?? Promise.resolve(),
  };
}
