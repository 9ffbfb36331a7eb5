import fs from 'node:fs';
import path from 'node:path';
import type { Backup, BackupTrigger } from '../../contract/backups.ts';

/**
 * The backups folder: one ZIP per backup, named for when and how it was made
 * ('vault-backup-20261123-155100-manual.zip'; '-2', '-3' when two fall in the same second).
 * A name is the backup's id in URLs: anything not of this shape is no backup of ours, so a
 * request can never name a path outside the folder. Backups being written end in '.zip.part'.
 */
const NAME = /^vault-backup-(\d{8})-(\d{6})-(manual|scheduled)(?:-(\d{1,4}))?\.zip$/;
export const PART_SUFFIX = '.part';

export function isBackupName(name: string): boolean {
  return NAME.test(name);
}

function stampOf(date: Date): string {
  const iso = date.toISOString(); // 2026-11-23T15:51:00.000Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

function describe(dir: string, name: string): Backup | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, day, time, trigger] = match as unknown as [string, string, string, BackupTrigger];
  let size: number;
  try {
    size = fs.statSync(path.join(dir, name)).size;
  } catch {
    return null; // deleted meanwhile
  }
  const createdAt = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}Z`;
  return { name, trigger, createdAt, sizeBytes: size };
}

export function createBackupFolder(dir: string) {
  const ensure = () => fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  function list(): Backup[] {
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .map((name) => describe(dir, name))
      .filter((b): b is Backup => b !== null)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
  }

  return {
    dir,
    list,
    /** The path of a backup by name, or null when there is no such backup. */
    find(name: string): { file: string; backup: Backup } | null {
      if (!isBackupName(name)) return null;
      const backup = describe(dir, name);
      return backup ? { file: path.join(dir, name), backup } : null;
    },
    /** A fresh name for a backup made at `date`, and where to write it before it is whole. */
    reserve(date: Date, trigger: BackupTrigger): { name: string; file: string; partFile: string } {
      ensure();
      const base = `vault-backup-${stampOf(date)}-${trigger}`;
      for (let n = 1; ; n++) {
        const name = n === 1 ? `${base}.zip` : `${base}-${n}.zip`;
        const file = path.join(dir, name);
        if (fs.existsSync(file) || fs.existsSync(file + PART_SUFFIX)) continue;
        fs.writeFileSync(file + PART_SUFFIX, '', { flag: 'wx', mode: 0o600 });
        return { name, file, partFile: file + PART_SUFFIX };
      }
    },
    remove(name: string): boolean {
      if (!isBackupName(name)) return false;
      try {
        fs.unlinkSync(path.join(dir, name));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
    /** Deletes all but the newest `keep` scheduled backups; returns the names deleted. */
    prune(keep: number): string[] {
      const old = list()
        .filter((b) => b.trigger === 'scheduled')
        .slice(keep)
        .map((b) => b.name);
      for (const name of old) this.remove(name);
      return old;
    },
    /** Removes '.part' files a crash left behind (none is being written at start). */
    removeUnfinished() {
      if (!fs.existsSync(dir)) return;
      for (const name of fs.readdirSync(dir)) {
        if (name.endsWith(PART_SUFFIX) || name.startsWith('.staging-')) {
          fs.rmSync(path.join(dir, name), { recursive: true, force: true });
        }
      }
    },
  };
}

export type BackupFolder = ReturnType<typeof createBackupFolder>;
