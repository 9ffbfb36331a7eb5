import { z } from 'zod';

/** How a backup came to be: by hand (Admin Console, API or CLI) or by the schedule. */
export const BACKUP_TRIGGERS = ['manual', 'scheduled'] as const;
export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

/** One backup file in the backups folder (admins only). */
export const backupSchema = z.object({
  /** The file name, e.g. 'vault-backup-20261123-155100-manual.zip'; also its id in URLs. */
  name: z.string(),
  trigger: z.enum(BACKUP_TRIGGERS),
  /** ISO date and time (UTC) the backup was made. */
  createdAt: z.string(),
  sizeBytes: z.number().int().nonnegative(),
});
export type Backup = z.infer<typeof backupSchema>;

/** GET /api/backups: the backups, newest first, and the schedule. */
export const backupListSchema = z.object({
  backups: z.array(backupSchema),
  schedule: z.object({
    /** Hours between scheduled backups; null when scheduled backups are off. */
    intervalHours: z.number().positive().nullable(),
    /** How many scheduled backups are kept (backups made by hand are never pruned). */
    keep: z.number().int().positive(),
  }),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** POST /api/backups → 201 with the new backup. */
export const createdBackupSchema = z.object({ backup: backupSchema });
export type CreatedBackup = z.infer<typeof createdBackupSchema>;

/** manifest.json inside a backup ZIP. */
export const backupManifestSchema = z.object({
  format: z.literal('the-vault-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  trigger: z.enum(BACKUP_TRIGGERS),
  /** The vault's public origin when the backup was made. */
  origin: z.string(),
  /** The last database migration the backup's database has (its tag, e.g. '0008_privacy'). */
  migration: z.string().nullable(),
  /** Migration time stamp (drizzle's folderMillis) of that migration; 0 when none. */
  migrationMillis: z.number(),
  counts: z.object({
    users: z.number().int(),
    entries: z.number().int(),
    files: z.number().int(),
  }),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;
