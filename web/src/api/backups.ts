/**
 * The admin's backups (/backups, admins only): list, make one now, delete one. A download is a
 * plain link to GET /api/backups/{name} (the browser streams the file to disk).
 */
import type { Backup, BackupList } from '../../../contract/backups.ts';
import { API_PREFIX, ApiError, INVALID_RESPONSE, request } from './client.ts';

export type { Backup, BackupList };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** GET /backups → the backups (newest first) and the schedule. */
export async function fetchBackups(): Promise<BackupList> {
  const data = await request('/backups');
  if (isRecord(data) && Array.isArray(data.backups) && isRecord(data.schedule)) {
    return data as unknown as BackupList;
  }
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** POST /backups: makes a backup now and resolves once it is written. */
export async function createBackup(): Promise<Backup> {
  const data = await request('/backups', { method: 'POST' });
  if (isRecord(data) && isRecord(data.backup)) return data.backup as unknown as Backup;
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** DELETE /backups/{name}. */
export async function deleteBackup(name: string): Promise<void> {
  await request(`/backups/${encodeURIComponent(name)}`, { method: 'DELETE' });
}

/** Where the browser downloads a backup. */
export const backupDownloadUrl = (name: string) =>
  `${API_PREFIX}/backups/${encodeURIComponent(name)}`;
