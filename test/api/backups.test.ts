import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import yazl from 'yazl';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupListSchema, backupManifestSchema } from '../../contract/backups.ts';
import { createBackupService } from '../../src/backups/service.ts';
import {
  FIRST_BACKUP_DELAY_MS,
  nextScheduledDelay,
  startBackupSchedule,
} from '../../src/backups/schedule.ts';
import { restoreBackup } from '../../src/backups/restore.ts';
import { markRunning, markServerRunning } from '../../src/backups/server-marker.ts';
import { startVault } from '../../src/server.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { ADMIN_PASSWORD, createTestVault, tempConfig, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let adminCookie: string;
let aliceCookie: string;
let photoPath: string;

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'admin', password: ADMIN_PASSWORD, role: 'ADMIN' });
  const alice = await vault.createUser({ username: 'alice' });
  adminCookie = await vault.login('admin', ADMIN_PASSWORD);
  aliceCookie = await vault.login('alice', alice.password);
  const body = new FormData();
  body.append('type', 'WHISKEY');
  body.append('name', 'Lagavulin 16');
  body.append('photo', new Blob([await jpeg(400, 300)], { type: 'image/jpeg' }), 'bottle.jpg');
  const res = await vault.request('/api/beverages', { method: 'POST', body, cookie: aliceCookie });
  expect(res.status).toBe(201);
  photoPath = (await json(res)).beverage.photoPath;
});
const temporary: string[] = [];
/** A temporary folder, removed after the tests. */
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-backups-test-'));
  temporary.push(dir);
  return dir;
}
afterAll(async () => {
  await vault.close();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file of a ZIP, by name. */
async function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(data, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

/**
 * A ZIP with these files, written to a temporary file. yazl refuses names such as '../x', so
 * `rename` swaps byte strings of the same length in the finished archive.
 */
async function zipFile(
  files: Record<string, Buffer | string>,
  rename: [string, string] | null = null,
): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  if (rename) {
    bytes = Buffer.from(bytes.toString('latin1').replaceAll(rename[0], rename[1]), 'latin1');
  }
  const file = path.join(tempDir(), 'backup.zip');
  fs.writeFileSync(file, bytes);
  return file;
}

async function makeBackup(): Promise<string> {
  const res = await vault.request('/api/backups', { method: 'POST', cookie: adminCookie });
  expect(res.status).toBe(201);
  return (await json(res)).backup.name;
}

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
        await vi.waitFor(() => expect(backups.busy).toBe(false));
      }
      const [newest, older] = scheduled();
      expect(Date.parse(newest!.createdAt) - Date.parse(older!.createdAt)).toBe(60 * 60_000);
    } finally {
      schedule.stop();
      vi.useRealTimers();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});

describe('restoring', () => {
  it('restores a backup into a data folder: the database and photos of the backup, the old data and imports aside', async () => {
    const file = path.join(vault.config.backupDir, await makeBackup());
    const target = tempConfig();
    fs.mkdirSync(target.uploadsDir, { recursive: true });
    fs.writeFileSync(path.join(target.uploadsDir, 'old.jpg'), 'old');
    fs.mkdirSync(path.join(target.dataDir, 'imports', 'job1'), { recursive: true });
    const { manifest, previousDataDir } = await restoreBackup(target, file);
    expect(manifest.counts.entries).toBe(1);
    const db = new Database(target.databasePath, { readonly: true });
    expect(db.prepare('select name from beverages').pluck().all()).toEqual(['Lagavulin 16']);
    db.close();
    const photo = photoPath.slice('media/'.length);
    expect(fs.readFileSync(path.join(target.uploadsDir, photo))).toEqual(
      fs.readFileSync(path.join(vault.config.uploadsDir, photo)),
    );
    expect(fs.readFileSync(path.join(previousDataDir, 'uploads', 'old.jpg'), 'utf8')).toBe('old');
    // An unfinished import belongs to the replaced database: it goes aside with it.
    expect(fs.existsSync(path.join(previousDataDir, 'imports', 'job1'))).toBe(true);
    expect(fs.existsSync(path.join(target.dataDir, 'imports'))).toBe(false);
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });

  it('refuses while a server runs on the data folder, and changes nothing', async () => {
    const file = path.join(vault.config.backupDir, await makeBackup());
    const target = tempConfig();
    const marker = markServerRunning(target.dataDir);
    const before = fs.readdirSync(target.dataDir).sort();
    await expect(restoreBackup(target, file)).rejects.toThrow(/is running on/);
    expect(fs.readdirSync(target.dataDir).sort()).toEqual(before);
    marker.remove();
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });

  it('refuses while another machine or container has marked the data folder within 30 seconds', async () => {
    const file = path.join(vault.config.backupDir, await makeBackup());
    const target = tempConfig();
    const marker = path.join(target.dataDir, 'server.pid');
    fs.writeFileSync(marker, JSON.stringify({ pid: 1, host: 'another-container', startedAt: '' }));
    await expect(restoreBackup(target, file)).rejects.toThrow(
      'A vault server (process 1 on another-container) is running on',
    );
    expect(fs.existsSync(target.databasePath)).toBe(false);
    // A marker not touched for a minute is a crashed server's: the restore goes ahead.
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(marker, old, old);
    await restoreBackup(target, file);
    expect(fs.existsSync(target.databasePath)).toBe(true);
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });

  it('keeps the server from starting while a restore replaces the data', async () => {
    const target = tempConfig();
    const restore = markRunning(target.dataDir, 'restore');
    await expect(startVault(target)).rejects.toThrow(
      `A restore (process ${process.pid} on ${os.hostname()}) is replacing the data in`,
    );
    expect(fs.existsSync(target.databasePath)).toBe(false);
    expect(fs.existsSync(path.join(target.dataDir, 'server.pid'))).toBe(false);
    restore.remove();
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });

  const manifest = JSON.stringify({
    format: 'the-vault-backup',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    trigger: 'manual',
    origin: 'http://localhost:8080',
    migration: null,
    migrationMillis: 0,
    counts: { users: 0, entries: 0, files: 0 },
  });

  it('refuses a backup whose photo was damaged after it was made, and changes nothing', async () => {
    const original = fs.readFileSync(path.join(vault.config.backupDir, await makeBackup()));
    const photo = fs.readFileSync(
      path.join(vault.config.uploadsDir, photoPath.slice('media/'.length)),
    );
    // Photos are stored as they are: flip one byte in the middle of this one.
    const at = original.indexOf(photo.subarray(0, 64)) + Math.floor(photo.length / 2);
    const damaged = Buffer.from(original);
    damaged[at] = damaged[at]! ^ 0xff;
    const file = path.join(tempDir(), 'damaged.zip');
    fs.writeFileSync(file, damaged);
    const target = tempConfig();
    openDatabase(target.databasePath).close();
    const bytes = fs.readFileSync(target.databasePath);
    await expect(restoreBackup(target, file)).rejects.toThrow('does not match its checksum');
    expect(fs.readFileSync(target.databasePath)).toEqual(bytes);
    expect(fs.readdirSync(target.dataDir).filter((n) => n.startsWith('before-restore'))).toEqual(
      [],
    );
    fs.rmSync(target.dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it.each([
    [
      'a file that is not a ZIP',
      async () => {
        const file = path.join(tempDir(), 'x.zip');
        fs.writeFileSync(file, 'not a zip at all');
        return file;
      },
      /not a vault backup/,
    ],
    ['a ZIP without a manifest', () => zipFile({ 'vault.sqlite': 'x' }), /no backup manifest/],
    [
      'a ZIP with a path outside the data folder',
      () =>
        zipFile({ 'manifest.json': manifest, 'uploads/xx/xx/evil.jpg': 'x' }, ['xx/xx/', '../../']),
      /invalid relative path|which no vault backup holds/,
    ],
    [
      'a ZIP whose database is not a database',
      () => zipFile({ 'manifest.json': manifest, 'vault.sqlite': 'garbage'.repeat(100) }),
      /database/,
    ],
    ['a ZIP with no database', () => zipFile({ 'manifest.json': manifest }), /no database/],
  ])('refuses %s and changes nothing', async (_what, make, message) => {
    const file = await make();
    const target = tempConfig();
    openDatabase(target.databasePath).close();
    fs.mkdirSync(target.uploadsDir, { recursive: true });
    const before = fs.readdirSync(target.dataDir).sort();
    const bytes = fs.readFileSync(target.databasePath);
    await expect(restoreBackup(target, file)).rejects.toThrow(message);
    expect(fs.readdirSync(target.dataDir).sort()).toEqual(before);
    expect(fs.readFileSync(target.databasePath)).toEqual(bytes);
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });
});
