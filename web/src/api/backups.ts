/**
 * The admin's backups (/backups, admins only): list, make one now, delete one. A download is a
 * plain link to GET /api/backups/{name} (the browser streams the file to disk). Every call is
 * typed from the route table (./call.ts).
 */
import type { Backup, BackupList } from '../../../contract/backups.ts';
import type { RouteKey } from '../../../contract/routes/index.ts';
import { call, pathOf } from './call.ts';
import { API_PREFIX } from './client.ts';

export type { Backup, BackupList };

/** GET /backups → the backups (newest first) and the schedule. */
export function fetchBackups(): Promise<BackupList> {
  return call('GET /backups');
}

/** POST /backups: makes a backup now and resolves once it is written. */
export async function createBackup(): Promise<Backup> {
  return (await call('POST /backups')).backup;
}

/** DELETE /backups/{name}. */
export async function deleteBackup(name: string): Promise<void> {
  await call('DELETE /backups/{name}', { params: { name } });
}

/** Where the browser downloads a backup. */
export const backupDownloadUrl = (name: string) =>
  API_PREFIX + pathOf('GET /backups/{name}' satisfies RouteKey, { name });
