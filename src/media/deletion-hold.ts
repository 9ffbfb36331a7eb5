import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { logger } from '../logger.ts';
import { markedBy, STALE_MS, writeMarker } from '../process-marker.ts';

/**
 * While a backup copies the vault, no stored image is deleted: a row in the database copy may
 * name a photo that a replacement deletes a moment after the copy is taken, and the backup
 * would then lack it. The backup holds deletions with a process marker in '<uploads>/.holds/'
 * (so that a server process holds back for a backup made by `npm run vault -- backup` beside
 * it, and processes sharing the uploads folder for each other); a marker left by a crash is
 * ignored (src/process-marker.ts). The uploads folder's listings skip the folder.
 */
export const HOLDS_FOLDER = '.holds';

/** How often deletions that wait are tried again. */
export const HELD_RETRY_MS = 1_000;

const holdsDir = (uploadsDir: string) => path.join(uploadsDir, HOLDS_FOLDER);

/** Holds deletions in `uploadsDir` until `release()`; first removes markers crashes left. */
export function holdDeletions(uploadsDir: string): { release(): void } {
  for (const file of markers(uploadsDir)) {
    // Old enough not to be one being written this moment.
    const old =
      (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < Date.now() - STALE_MS;
    if (old && markedBy(file) === null) fs.rmSync(file, { force: true });
  }
  const marker = writeMarker(
    path.join(holdsDir(uploadsDir), `${process.pid}-${randomBytes(6).toString('hex')}`),
  );
  return { release: () => marker.remove() };
}

function markers(uploadsDir: string): string[] {
  try {
    return fs
      .readdirSync(holdsDir(uploadsDir))
      .map((name) => path.join(holdsDir(uploadsDir), name));
  } catch {
    return [];
  }
}

/** Whether a live process holds deletions in `uploadsDir`. */
export function deletionsHeld(uploadsDir: string): boolean {
  return markers(uploadsDir).some((file) => markedBy(file) !== null);
}

/**
 * Deletes files, or, while deletions are held, keeps them and tries again every HELD_RETRY_MS
 * (an unref'd timer: a process that exits meanwhile leaves them to the uploads sweep, which
 * removes files no row references).
 */
export function createDeleter(uploadsDir: string) {
  const waiting = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  async function flush() {
    timer = undefined;
    if (deletionsHeld(uploadsDir)) return schedule();
    const files = [...waiting];
    waiting.clear();
    await Promise.all(files.map((file) => fs.promises.rm(file, { force: true })));
  }
  function schedule() {
    timer ??= setTimeout(() => {
      flush().catch((error: unknown) =>
        logger.warn('Deleting replaced images failed: {error}', { error }),
      );
    }, HELD_RETRY_MS);
    timer.unref();
  }

  return {
    async remove(file: string): Promise<void> {
      if (deletionsHeld(uploadsDir)) {
        waiting.add(file);
        schedule();
        return;
      }
      await fs.promises.rm(file, { force: true });
    },
    /** Files that wait for a hold to end. */
    get waiting(): number {
      return waiting.size;
    },
  };
}
