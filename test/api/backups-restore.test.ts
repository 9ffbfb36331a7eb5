import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../../src/backups/restore.ts';
import { markRunning, markServerRunning } from '../../src/backups/server-marker.ts';
import { openDatabase } from '../../src/db/client.ts';
import { startVault } from '../../src/server.ts';
import { backupVault, removeTemporary, tempDir, zipFile } from '../helpers/backups.ts';
import { tempConfig, type TestVault } from '../helpers/vault.ts';

/**
 * `restore` (src/backups/restore.ts, what `npm run vault -- restore FILE` runs): a backup's
 * database and uploads replace the data folder's, the old data aside; refused, changing
 * nothing, while a server runs and for anything that is not a whole vault backup.
 */

let vault: TestVault;
let photoPath: string;
let makeBackup: () => Promise<string>;

beforeAll(async () => {
  ({ vault, photoPath, makeBackup } = await backupVault());
});
afterAll(async () => {
  await vault.close();
  removeTemporary();
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

  it('refuses while another restore is under way on the data folder', async () => {
    const file = path.join(vault.config.backupDir, await makeBackup());
    const target = tempConfig();
    const other = markRunning(target.dataDir, 'restore');
    await expect(restoreBackup(target, file)).rejects.toThrow('Another restore');
    expect(fs.existsSync(target.databasePath)).toBe(false);
    other.remove();
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
