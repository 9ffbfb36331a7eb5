import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { badRequest } from '../domain-error.ts';
import { restoreBackup } from './restore.ts';
import { createBackupService } from './service.ts';

export const BACKUP_USAGE = `  backup          (a backup of the database and uploads into the backups folder; the server may run)
  restore FILE    (replaces the database and uploads with a backup's; the server must be stopped)`;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `npm run vault -- backup` and `npm run vault -- restore FILE`. */
export async function runBackupCommand(
  command: 'backup' | 'restore',
  args: string[],
  config: Config,
): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (command === 'backup') {
    if (positionals.length > 0) throw badRequest('backup takes no arguments.');
    if (config.databaseUrl === null && !fs.existsSync(config.databasePath)) {
      throw badRequest(`There is no vault at ${config.dataDir} (no ${config.databasePath}).`);
    }
    const backup = await createBackupService(config).create('manual');
    console.log(
      `Backed up the vault to ${path.join(config.backupDir, backup.name)} (${megabytes(backup.sizeBytes)})`,
    );
    return 0;
  }
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw badRequest('Usage: npm run vault -- restore FILE');
  const { manifest, previousDataDir } = await restoreBackup(config, path.resolve(file));
  console.log(
    `Restored the backup of ${manifest.createdAt} (${manifest.counts.users} users, ${manifest.counts.entries} entries, ${manifest.counts.files} files).\n` +
      `The data it replaced is in ${previousDataDir}: delete it once the restored vault looks right.\n` +
      'Start the server: it applies any newer database migrations.',
  );
  return 0;
}
