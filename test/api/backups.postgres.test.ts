import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupListSchema } from '../../contract/backups.ts';
import { runBackupCommand } from '../../src/backups/cli.ts';
import { NO_RESTORE_ON_POSTGRES } from '../../src/backups/restore.ts';
import { startBackupSchedule } from '../../src/backups/schedule.ts';
import { NO_BACKUPS_ON_POSTGRES } from '../../src/backups/service.ts';
import { json } from '../helpers/json.ts';
import { ADMIN_PASSWORD, createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * A vault on PostgreSQL makes no backups of its own yet (a backup copies the SQLite file:
 * backups.test.ts, on SQLite): making or restoring one is refused with a message, not a 500,
 * and no backup is scheduled.
 */

let vault: TestVault;
let adminCookie: string;

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'admin', password: ADMIN_PASSWORD, role: 'ADMIN' });
  adminCookie = await vault.login('admin', ADMIN_PASSWORD);
});
afterAll(() => vault.close());

describe('backups of a vault on PostgreSQL', () => {
  it('refuses to make one with a 409 that says why, and lists none', async () => {
    expect(vault.ctx.database.engine).toBe('postgres');
    const made = await vault.request('/api/backups', { method: 'POST', cookie: adminCookie });
    expect(made.status).toBe(409);
    expect(await json(made)).toEqual({ message: NO_BACKUPS_ON_POSTGRES });
    const list = backupListSchema.parse(
      await json(await vault.request('/api/backups', { cookie: adminCookie })),
    );
    expect(list.backups).toEqual([]);
    expect(fs.existsSync(vault.config.backupDir)).toBe(false);
  });

  it('refuses `vault backup` and `vault restore` with the same words, and schedules none', async () => {
    await expect(runBackupCommand('backup', [], vault.config)).rejects.toThrow(
      NO_BACKUPS_ON_POSTGRES,
    );
    await expect(runBackupCommand('restore', ['backup.zip'], vault.config)).rejects.toThrow(
      NO_RESTORE_ON_POSTGRES,
    );
    expect(vault.ctx.backups.unavailable).toBe(NO_BACKUPS_ON_POSTGRES);
    const schedule = startBackupSchedule(vault.ctx.backups, 24);
    schedule.stop();
    expect(vault.ctx.backups.list()).toEqual([]);
  });
});
