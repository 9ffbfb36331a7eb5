import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupListSchema, backupManifestSchema } from '../../contract/backups.ts';
import { createBackupService } from '../../src/backups/service.ts';
import {
  FIRST_BACKUP_DELAY_MS,
  nextScheduledDelay,
  startBackupSchedule,
} from '../../src/backups/schedule.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { backupVault, removeTemporary, tempDir, unzip } from '../helpers/backups.ts';
import { json } from '../helpers/json.ts';
import { tempConfig, type TestVault } from '../helpers/vault.ts';

/**
 * /api/backups: making a backup of the whole vault (one ZIP), listing, downloading and deleting
 * them, admins only; retention and the schedule. Restoring: backups-restore.test.ts.
 */

let vault: TestVault;
let adminCookie: string;
let aliceCookie: string;
let photoPath: string;
let makeBackup: () => Promise<string>;

beforeAll(async () => {
  ({ vault, adminCookie, aliceCookie, photoPath, makeBackup } = await backupVault());
});
afterAll(async () => {
  await vault.close();
  removeTemporary();
});

describe('making, listing, downloading and deleting backups', () => {
  it('makes one ZIP with a manifest, the database and the uploaded photos, and lists it', async () => {
    const name = await makeBackup();
    expect(name).toMatch(/^vault-backup-\d{8}-\d{6}-manual(-\d+)?\.zip$/);
    const list = backupListSchema.parse(
      await json(await vault.request('/api/backups', { cookie: adminCookie })),
    );
    expect(list.backups.map((b) => b.name)).toContain(name);
    expect(list.schedule).toEqual({ intervalHours: 24, keep: 7 });

    const res = await vault.request(`/api/backups/${name}`, { cookie: adminCookie });
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    const manifest = backupManifestSchema.parse(JSON.parse(files.get('manifest.json')!.toString()));
    expect(manifest).toMatchObject({
      trigger: 'manual',
      counts: { users: 2, entries: 1, files: 1 },
    });
    expect(manifest.migration).toMatch(/^\d{4}_/);
    const stored = path.join(vault.config.uploadsDir, photoPath.slice('media/'.length));
    expect(files.get(`uploads/${photoPath.slice('media/'.length)}`)).toEqual(
      fs.readFileSync(stored),
    );

    const copy = path.join(tempDir(), 'copy.sqlite');
    fs.writeFileSync(copy, files.get('vault.sqlite')!);
    const db = new Database(copy, { readonly: true });
    expect(db.prepare('select name, photo_path from beverages').all()).toEqual([
      { name: 'Lagavulin 16', photo_path: photoPath },
    ]);
    db.close();
  });

  it('keeps backups in their own folder, outside every folder the web serves', async () => {
    const name = await makeBackup();
    expect(fs.existsSync(path.join(vault.config.dataDir, 'backups', name))).toBe(true);
    expect(
      (await vault.request(`/media/../backups/${name}`, { cookie: adminCookie })).status,
    ).not.toBe(200);
    expect(() =>
      loadConfig({
        VAULT_DATA_DIR: vault.config.dataDir,
        VAULT_BACKUP_DIR: vault.config.uploadsDir,
      }),
    ).toThrow(ConfigError);
  });

  it('deletes a backup, after which it is neither listed nor downloadable', async () => {
    const name = await makeBackup();
    const res = await vault.request(`/api/backups/${name}`, {
      method: 'DELETE',
      cookie: adminCookie,
    });
    expect(res.status).toBe(204);
    const list = await json(await vault.request('/api/backups', { cookie: adminCookie }));
    expect(list.backups.map((b: { name: string }) => b.name)).not.toContain(name);
    expect((await vault.request(`/api/backups/${name}`, { cookie: adminCookie })).status).toBe(404);
    const again = await vault.request(`/api/backups/${name}`, {
      method: 'DELETE',
      cookie: adminCookie,
    });
    expect(again.status).toBe(404);
  });

  it.each([
    'vault.sqlite',
    '..%2Fvault.sqlite',
    '..%2F..%2Fetc%2Fpasswd',
    'vault-backup-1-manual.zip',
  ])('answers 404 for %s, which names no backup', async (name) => {
    const res = await vault.request(`/api/backups/${name}`, { cookie: adminCookie });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: expect.any(String) });
  });
});

describe('who may use backups', () => {
  const routes = [
    ['GET', '/api/backups'],
    ['POST', '/api/backups'],
    ['GET', '/api/backups/NAME'],
    ['DELETE', '/api/backups/NAME'],
  ] as const;

  it.each(routes)('refuses %s %s to anonymous callers with 401', async (method, route) => {
    const name = await makeBackup();
    const before = fs.readdirSync(vault.config.backupDir).sort();
    const res = await vault.request(route.replace('NAME', name), { method });
    expect(res.status).toBe(401);
    expect(fs.readdirSync(vault.config.backupDir).sort()).toEqual(before);
  });

  it.each(routes)('refuses %s %s to a user who is not an admin with 403', async (method, route) => {
    const name = await makeBackup();
    const before = fs.readdirSync(vault.config.backupDir).sort();
    const res = await vault.request(route.replace('NAME', name), { method, cookie: aliceCookie });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ message: 'Only an admin can do that' });
    expect(fs.readdirSync(vault.config.backupDir).sort()).toEqual(before);
  });
});

describe('retention', () => {
  it('keeps the newest VAULT_BACKUP_KEEP scheduled backups and never prunes backups made by hand', async () => {
    const config = tempConfig({ VAULT_BACKUP_KEEP: '2' });
    openDatabase(config.databasePath).close();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const backups = createBackupService(config, () => clock);
    const manual = await backups.create('manual');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock += 24 * 60 * 60_000;
      made.push((await backups.create('scheduled')).name);
      backups.prune();
    }
    expect(backups.list().map((b) => b.name)).toEqual([made[2], made[1], manual.name]);
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  });
});

describe('the schedule', () => {
  it('waits 10 minutes for the first scheduled backup, then an interval after the newest, at least a minute', () => {
    const at = Date.parse('2026-06-01T12:00:00Z');
    expect(nextScheduledDelay(undefined, 24, at)).toBe(FIRST_BACKUP_DELAY_MS);
    expect(nextScheduledDelay('2026-06-01T06:00:00Z', 24, at)).toBe(18 * 60 * 60_000);
    expect(nextScheduledDelay('2026-05-01T06:00:00Z', 24, at)).toBe(60_000);
  });

  it('makes scheduled backups on time and keeps the newest VAULT_BACKUP_KEEP of them', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const config = tempConfig({ VAULT_BACKUP_KEEP: '2', VAULT_BACKUP_INTERVAL_HOURS: '1' });
    openDatabase(config.databasePath).close();
    const backups = createBackupService(config);
    const schedule = startBackupSchedule(backups, config.backupIntervalHours);
    try {
      const scheduled = () => backups.list().filter((b) => b.trigger === 'scheduled');
      vi.advanceTimersByTime(FIRST_BACKUP_DELAY_MS - 1_000);
      expect(scheduled()).toEqual([]);
      for (const expected of [1, 2, 2]) {
        vi.advanceTimersByTime(expected === 1 ? 1_000 : 60 * 60_000);
        await vi.waitFor(() => expect(scheduled()).toHaveLength(expected), { timeout: 20_000 });
        await vi.waitFor(() => expect(backups.busy).toBe(false), { timeout: 20_000 });
      }
      const [newest, older] = scheduled();
      // An hour apart (vi.waitFor moves the fake clock on a little while the backup is made).
      const apart = Date.parse(newest!.createdAt) - Date.parse(older!.createdAt);
      expect(apart).toBeGreaterThanOrEqual(60 * 60_000);
      expect(apart).toBeLessThan(61 * 60_000);
    } finally {
      schedule.stop();
      vi.useRealTimers();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
