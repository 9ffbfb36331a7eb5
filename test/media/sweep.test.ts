import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { AVATAR, PHOTO } from '../../src/media/images.ts';
import {
  referencedUploads,
  startUploadsSweeps,
  SWEEP_DELAY_MS,
  SWEEP_GRACE_MS,
  sweepUploads,
} from '../../src/media/sweep.ts';
import { startVault } from '../../src/server.ts';
import { jpeg } from '../helpers/images.ts';
import { createTestVault, tempConfig, type TestVault } from '../helpers/vault.ts';

const HOUR = 60 * 60_000;
const name = (n: number, suffix = '.jpg') => `${n.toString(16).padStart(32, '0')}${suffix}`;

/** Writes a file under the uploads folder, dated `ageMs` ago; returns its path. */
function leftover(uploadsDir: string, relative: string, ageMs: number): string {
  const file = path.join(uploadsDir, relative);
  fs.writeFileSync(file, 'not a whole image');
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
  return file;
}

/** Dates a stored file ('media/…') `ageMs` ago. */
function age(uploadsDir: string, storedPath: string, ageMs: number) {
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(path.join(uploadsDir, storedPath.slice('media/'.length)), when, when);
}

/** An entry with a photo and an avatar for its owner, both stored files dated two hours ago. */
async function seed(ctx: AppContext, username: string) {
  const user = await ctx.users.insert({
    username,
    fullName: 'Sweep Owner',
    email: `${username}@example.com`,
    role: 'USER',
    passwordHash: 'unused',
  });
  const entry = await ctx.beverages.create(
    { id: user.id, role: 'USER' },
    { type: 'WHISKEY', name: 'Kept' },
    await jpeg(64, 48),
  );
  const avatarPath = await ctx.media.save(await jpeg(32, 32), AVATAR);
  await ctx.users.update(user.id, { avatarPath });
  age(ctx.config.uploadsDir, entry.photoPath!, 2 * HOUR);
  age(ctx.config.uploadsDir, avatarPath, 2 * HOUR);
  return { photoPath: entry.photoPath!, avatarPath };
}

const exists = (uploadsDir: string, storedPath: string) =>
  fs.existsSync(path.join(uploadsDir, storedPath.slice('media/'.length)));

describe('the uploads sweep', () => {
  let vault: TestVault;
  beforeAll(() => {
    vault = createTestVault();
  });
  afterAll(() => vault.close());
  /** What the vault's rows reference, as the server's sweep reads it. */
  const referenced = () => referencedUploads(vault.ctx);

  it('counts the copies of photos received with remote entries as referenced', async () => {
    const db = vault.ctx.database.database;
    const now = Date.now();
    const actor = await db
      .prepare(
        "INSERT INTO actors (kind, uri, display_name, summary, created_at, updated_at) VALUES ('remote', 'https://remote.example/users/bob', 'Bob', '', ?, ?) RETURNING id",
      )
      .pluck<number>()
      .get(now, now);
    const copy = await vault.ctx.media.save(await jpeg(40, 30), PHOTO);
    await db
      .prepare(
        `INSERT INTO remote_entries (actor_id, note_uri, type, name, subtype, rating, status, photo_url, photo_path, published_at, updated_at, received_at)
         VALUES (?, 'https://remote.example/users/bob/entries/1', 'BEER', 'Remote', 'IPA', 3, 'TRIED', 'https://remote.example/p.jpg', ?, ?, ?, ?)`,
      )
      .run(actor, copy, now, now, now);
    age(vault.config.uploadsDir, copy, 2 * HOUR);
    expect(await referenced()).toContain(copy);
    await sweepUploads({ uploadsDir: vault.config.uploadsDir, referencedPaths: referenced });
    expect(exists(vault.config.uploadsDir, copy)).toBe(true);
    // Leave the folder as it was for the tests below, which count what they find.
    await db.prepare('DELETE FROM actors WHERE id = ?').run(actor);
    fs.rmSync(path.join(vault.config.uploadsDir, copy.slice('media/'.length)));
  });

  it('removes old unfinished and unreferenced files and keeps referenced, young and foreign ones', async () => {
    const dir = vault.config.uploadsDir;
    const kept = await seed(vault.ctx, 'sweep_unit');
    const oldOrphan = leftover(dir, name(1), 2 * HOUR);
    const oldAvatarOrphan = leftover(dir, AVATAR.folder + name(2), 2 * HOUR);
    const oldTemp = leftover(dir, name(3, '.jpg.tmp'), 2 * HOUR);
    const oldAvatarTemp = leftover(dir, AVATAR.folder + name(4, '.jpg.tmp'), 2 * HOUR);
    const youngOrphan = leftover(dir, name(5), SWEEP_GRACE_MS - 60_000);
    const youngTemp = leftover(dir, name(6, '.jpg.tmp'), 1_000);
    const foreign = leftover(dir, 'notes.txt', 2 * HOUR);

    const result = await sweepUploads({ uploadsDir: dir, referencedPaths: referenced });

    expect(result).toEqual({ unfinished: 2, unreferenced: 2, kept: 4 });
    for (const file of [oldOrphan, oldAvatarOrphan, oldTemp, oldAvatarTemp]) {
      expect(fs.existsSync(file)).toBe(false);
    }
    for (const file of [youngOrphan, youngTemp, foreign]) expect(fs.existsSync(file)).toBe(true);
    expect(exists(dir, kept.photoPath)).toBe(true);
    expect(exists(dir, kept.avatarPath)).toBe(true);
  });

  it('uses the grace period it is given', async () => {
    const dir = vault.config.uploadsDir;
    const tenMinutesOld = leftover(dir, name(7), 10 * 60_000);
    const young = await sweepUploads({ uploadsDir: dir, referencedPaths: referenced });
    expect(young.unreferenced).toBe(0);
    expect(fs.existsSync(tenMinutesOld)).toBe(true);
    await sweepUploads({ uploadsDir: dir, referencedPaths: referenced, graceMs: 5 * 60_000 });
    expect(fs.existsSync(tenMinutesOld)).toBe(false);
    expect((await referenced()).filter((p) => !exists(dir, p))).toEqual([]);
  });

  it('goes through thousands of files, removing exactly the unreferenced old ones', async () => {
    const dir = path.join(vault.config.dataDir, 'many');
    fs.mkdirSync(path.join(dir, AVATAR.folder), { recursive: true });
    const referenced: string[] = [];
    for (let i = 0; i < 2000; i++) {
      fs.writeFileSync(path.join(dir, PHOTO.folder + name(10_000 + i)), 'x');
      if (i % 3 === 0) referenced.push(`media/${name(10_000 + i)}`);
    }
    const result = await sweepUploads({
      uploadsDir: dir,
      referencedPaths: () => referenced,
      now: () => Date.now() + 2 * HOUR, // every file is past the grace period
    });
    expect(result).toEqual({ unfinished: 0, unreferenced: 1333, kept: 667 });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.jpg'))).toHaveLength(667);
  });
});

describe('sweeping while the server runs', () => {
  let vault: TestVault;
  beforeAll(() => {
    vault = createTestVault();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await vault.close();
  });

  it('sweeps every VAULT_UPLOADS_SWEEP_MINUTES, an hour unless set, at least a minute', () => {
    expect(loadConfig({}).uploadsSweepIntervalMinutes).toBe(60);
    expect(loadConfig({ VAULT_UPLOADS_SWEEP_MINUTES: '15' }).uploadsSweepIntervalMinutes).toBe(15);
    expect(() => loadConfig({ VAULT_UPLOADS_SWEEP_MINUTES: '0' })).toThrow(ConfigError);
  });

  it('removes what a crash leaves meanwhile once past the grace period, and keeps an upload in progress', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const dir = vault.config.uploadsDir;
    const kept = await seed(vault.ctx, 'sweep_periodic');
    /** A file written now, by the fake clock the sweep reads too. */
    const writtenNow = (relative: string) => leftover(dir, relative, 0);
    const sweeps = startUploadsSweeps(vault.ctx, HOUR);
    try {
      // The sweep at start, then a crash half-way through two uploads while the server runs.
      await vi.advanceTimersByTimeAsync(SWEEP_DELAY_MS);
      await sweeps.settled();
      const crashed = [writtenNow(name(20, '.jpg.tmp')), writtenNow(AVATAR.folder + name(21))];

      // An hour on: the leftovers are younger than the grace period, and stay.
      await vi.advanceTimersByTimeAsync(HOUR - SWEEP_DELAY_MS);
      await sweeps.settled();
      expect(crashed.filter((file) => fs.existsSync(file))).toEqual(crashed);

      // Two hours on: they are removed; an upload writing its file just now is not.
      await vi.advanceTimersByTimeAsync(HOUR - 1_000);
      const inProgress = writtenNow(name(22, '.jpg.tmp'));
      await vi.advanceTimersByTimeAsync(1_000);
      await sweeps.settled();
      expect(crashed.filter((file) => fs.existsSync(file))).toEqual([]);
      expect(fs.existsSync(inProgress)).toBe(true);
      expect(exists(dir, kept.photoPath)).toBe(true);
      expect(exists(dir, kept.avatarPath)).toBe(true);

      // Stopped, it sweeps no more.
      sweeps.stop();
      await vi.advanceTimersByTimeAsync(3 * HOUR);
      await sweeps.settled();
      expect(fs.existsSync(inProgress)).toBe(true);
    } finally {
      sweeps.stop();
      vi.useRealTimers();
    }
  });
});

describe('starting the vault', () => {
  let config: Config | undefined;
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await close?.();
    if (config) fs.rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('sweeps what a crash left in the uploads folder shortly after it starts', async () => {
    config = tempConfig({ PORT: String(await freePort()), HOST: '127.0.0.1' });
    const seeding = createContext(config);
    const kept = await seed(seeding, 'sweep_start');
    await seeding.close();
    const dir = config.uploadsDir;
    const crashed = [
      leftover(dir, name(1), 2 * HOUR),
      leftover(dir, name(2, '.jpg.tmp'), 2 * HOUR),
      leftover(dir, AVATAR.folder + name(3), 2 * HOUR),
    ];
    const young = leftover(dir, name(4), 60_000);

    const vault = await startVault(config);
    close = () => vault.close();
    const answer = await fetch(`${vault.url.replace('localhost', '127.0.0.1')}/api/auth/me`);
    expect(answer.status).toBe(401);

    await vi.waitFor(() => expect(crashed.filter((file) => fs.existsSync(file))).toEqual([]), {
      timeout: 10_000,
      interval: 50,
    });
    expect(fs.existsSync(young)).toBe(true);
    expect(exists(dir, kept.photoPath)).toBe(true);
    expect(exists(dir, kept.avatarPath)).toBe(true);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
