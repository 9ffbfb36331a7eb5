import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Backup, BackupManifest, BackupTrigger } from '../../contract/backups.ts';
import type { Config } from '../config.ts';
import { conflict, notFound } from '../domain-error.ts';
import { createBackupFolder } from './folder.ts';
import { migrationTag } from './migrations.ts';

const STAGING_PREFIX = '.backup-staging-';

/** Why a vault on PostgreSQL makes no backups of its own (yet): a backup copies the SQLite file. */
export const NO_BACKUPS_ON_POSTGRES =
  "Backups of a vault on PostgreSQL are made with the database's own tools for now.";

/**
 * Backups of the whole vault (database and uploads) as ZIP files in the backups folder
 * (VAULT_BACKUP_DIR, by default <data>/backups; never under a folder the web serves). Made
 * online: the server keeps answering and writing while one is made. One at a time per process.
 * Only of a vault on SQLite: on PostgreSQL, making one is refused (409, NO_BACKUPS_ON_POSTGRES).
 */
export function createBackupService(config: Config, now: () => number = Date.now) {
  const folder = createBackupFolder(config.backupDir);
  let running: Promise<Backup> | null = null;
  const unavailable = config.databaseUrl === null ? null : NO_BACKUPS_ON_POSTGRES;

  async function make(trigger: BackupTrigger): Promise<Backup> {
    const date = new Date(now());
    const { name, file, partFile } = folder.reserve(date, trigger);
    // In the data folder, on the uploads' file system, so that uploads are hard-linked.
    const stagingDir = path.join(
      config.dataDir,
      `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`,
    );
    try {
      // The snapshot's worker and the ZIP writer (yazl) load with the first backup.
      const [{ takeSnapshot }, { writeBackupZip }] = await Promise.all([
        import('./snapshot.ts'),
        import('./archive.ts'),
      ]);
      const snapshot = await takeSnapshot({
        databasePath: config.databasePath,
        uploadsDir: config.uploadsDir,
        stagingDir,
      });
      const manifest: BackupManifest = {
        format: 'the-vault-backup',
        version: 1,
        createdAt: date.toISOString(),
        trigger,
        origin: config.origin,
        migration: migrationTag(snapshot.migrationMillis),
        migrationMillis: snapshot.migrationMillis,
        counts: { users: snapshot.users, entries: snapshot.entries, files: snapshot.files.length },
      };
      await writeBackupZip({ snapshot, manifest, partFile, file });
      const made = folder.find(name);
      if (!made) throw new Error(`The backup ${name} vanished as it was written`);
      return made.backup;
    } catch (error) {
      fs.rmSync(partFile, { force: true });
      throw error;
    } finally {
      fs.rmSync(stagingDir, { recursive: true, force: true });
    }
  }

  return {
    folder,
    /**
     * Makes a backup now; refuses (409) while another is being made by this process, and on
     * PostgreSQL.
     */
    create(trigger: BackupTrigger = 'manual'): Promise<Backup> {
      if (unavailable !== null) throw conflict(unavailable);
      if (running) throw conflict('A backup is being made right now; try again when it is done.');
      running = make(trigger).finally(() => {
        running = null;
      });
      return running;
    },
    get busy() {
      return running !== null;
    },
    /** Why no backup can be made of this vault (on PostgreSQL), or null. */
    unavailable,
    list: () => folder.list(),
    /** The file of a backup by name (404 when there is none). */
    find(name: string): { file: string; backup: Backup } {
      const found = folder.find(name);
      if (!found) throw notFound('No such backup.');
      return found;
    },
    remove(name: string): void {
      if (!folder.remove(name)) throw notFound('No such backup.');
    },
    prune: () => folder.prune(config.backupKeep),
    /** What a crash left: unfinished backups and staging folders. Call at start only. */
    removeUnfinished() {
      folder.removeUnfinished();
      if (!fs.existsSync(config.dataDir)) return;
      for (const name of fs.readdirSync(config.dataDir)) {
        if (name.startsWith(STAGING_PREFIX)) {
          fs.rmSync(path.join(config.dataDir, name), { recursive: true, force: true });
        }
      }
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
