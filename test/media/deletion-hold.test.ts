import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { copyDatabase, takeSnapshot } from '../../src/backups/snapshot.ts';
import { deletionsHeld, HOLDS_FOLDER, holdDeletions } from '../../src/media/deletion-hold.ts';
import { PHOTO } from '../../src/media/images.ts';
import { sweepUploads } from '../../src/media/sweep.ts';
import { jpeg } from '../helpers/images.ts';
import { createTestVault } from '../helpers/vault.ts';

/**
 * No stored image is deleted while a backup copies the vault (src/media/deletion-hold.ts):
 * a photo replaced while the database is copied is in the backup, and goes once it is made.
 */

const vault = createTestVault();
afterAll(() => vault.close());

const fileOf = (storedPath: string) =>
  path.join(vault.config.uploadsDir, storedPath.slice('media/'.length));

const poll = { timeout: 15_000, interval: 50 };

describe('deletions held while a backup is made', () => {
  it('keeps in the backup every photo its database copy names, though the photo is replaced during the copy', async () => {
    const user = await vault.createUser({ username: 'keeper' });
    const viewer = { id: user.id, role: 'USER' as const };
    const entry = await vault.ctx.beverages.create(
      viewer,
      { type: 'WINE', name: 'Replaced twice' },
      await jpeg(64, 48),
    );
    const during: string[] = [];
    const snapshot = await takeSnapshot({
      databasePath: vault.config.databasePath,
      uploadsDir: vault.config.uploadsDir,
      stagingDir: path.join(vault.config.dataDir, 'staging-under-test'),
      copy: async (source, target) => {
        // A photo stored after the first listing of the uploads, named by the copy…
        const first = await vault.ctx.beverages.update(
          viewer,
          entry.id,
          {},
          { replace: await jpeg(64, 48) },
        );
        during.push(first.photoPath!);
        await copyDatabase(source, target);
        // …and replaced before the second listing, which deletes it.
        const second = await vault.ctx.beverages.update(
          viewer,
          entry.id,
          {},
          { replace: await jpeg(64, 48) },
        );
        during.push(second.photoPath!);
      },
    });
    const copy = new Database(snapshot.databaseFile, { readonly: true });
    const named = copy
      .prepare('select photo_path from beverages where id = ?')
      .pluck()
      .get(entry.id) as string;
    copy.close();
    expect(named).toBe(during[0]);
    expect(snapshot.files).toContain(named.slice('media/'.length));
    const staged = fs.readFileSync(
      path.join(snapshot.dir, 'uploads', named.slice('media/'.length)),
    );
    expect([staged[0], staged[1], staged.at(-2), staged.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    // No hold's marker is part of the backup, and the hold ends with the snapshot.
    expect(snapshot.files.some((f) => f.startsWith(HOLDS_FOLDER))).toBe(false);
    expect(deletionsHeld(vault.config.uploadsDir)).toBe(false);
    // The replaced photo goes once the backup no longer needs it; the current one stays.
    await vi.waitFor(() => expect(fs.existsSync(fileOf(during[0]!))).toBe(false), poll);
    expect(fs.existsSync(fileOf(during[1]!))).toBe(true);
    fs.rmSync(snapshot.dir, { recursive: true, force: true });
  });

  it('holds deletions for a backup another process makes, and not for one that died', async () => {
    const storedPath = await vault.ctx.media.save(await jpeg(16, 16), PHOTO);
    // A marker naming a live process of this machine: `npm run vault -- backup` beside us.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    const marker = path.join(vault.config.uploadsDir, HOLDS_FOLDER, `${other.pid}-under-test`);
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    const written = { pid: other.pid, host: os.hostname(), startedAt: new Date().toISOString() };
    fs.writeFileSync(marker, JSON.stringify(written));
    try {
      expect(deletionsHeld(vault.config.uploadsDir)).toBe(true);
      await vault.ctx.media.remove(storedPath);
      expect(fs.existsSync(fileOf(storedPath))).toBe(true);
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      // The process is gone: its marker holds nothing, and the deletion is done.
      await vi.waitFor(() => expect(fs.existsSync(fileOf(storedPath))).toBe(false), poll);
      expect(deletionsHeld(vault.config.uploadsDir)).toBe(false);
    } finally {
      other.kill('SIGKILL');
      fs.rmSync(marker, { force: true });
    }
  });

  it('deletes at once when nothing holds deletions, and the uploads sweep waits while something does', async () => {
    const storedPath = await vault.ctx.media.save(await jpeg(16, 16), PHOTO);
    await vault.ctx.media.remove(storedPath);
    expect(fs.existsSync(fileOf(storedPath))).toBe(false);

    const hold = holdDeletions(vault.config.uploadsDir);
    const kept = await vault.ctx.media.save(await jpeg(16, 16), PHOTO);
    await vault.ctx.media.remove(kept);
    expect(fs.existsSync(fileOf(kept))).toBe(true);
    // An image no row names, older than the sweep's grace period, stays while held too.
    const stray = await vault.ctx.media.save(await jpeg(16, 16), PHOTO);
    const sweep = () =>
      sweepUploads({ uploadsDir: vault.config.uploadsDir, referencedPaths: () => [], graceMs: 0 });
    await sweep();
    expect(fs.existsSync(fileOf(stray))).toBe(true);
    hold.release();
    await vi.waitFor(() => expect(fs.existsSync(fileOf(kept))).toBe(false), poll);
    await sweep();
    expect(fs.existsSync(fileOf(stray))).toBe(false);
  });
});
