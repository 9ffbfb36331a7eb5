import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { root, startVaultProcess, type VaultProcess } from '../helpers/process.ts';

/**
 * A backup made through the API of the real server process while clients keep logging entries
 * (some with photos) and replacing photos, downloaded, then restored with the command line into
 * the stopped vault: every write acknowledged before the backup was asked for is there with a
 * whole photo. The restore refuses while the server runs; `backup` on the command line works
 * beside the running server.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-backup-load-'));
const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-download-'));
const PASSWORD = 'backup-under-load password';
const CLIENTS = 3;

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(downloads, { recursive: true, force: true });
});

async function startServer(): Promise<VaultProcess> {
  const server = await startVaultProcess({
    VAULT_DATA_DIR: dataDir,
    VAULT_ADMIN_USERNAME: 'admin',
    VAULT_ADMIN_PASSWORD: PASSWORD,
    VAULT_BACKUP_INTERVAL_HOURS: '0',
  });
  children.add(server.child);
  void server.exited.then(() => children.delete(server.child));
  return server;
}

async function stopServer(server: VaultProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('vault_session='))!
    .split(';')[0]!;
}

/** `npm run vault -- <args>` on the test's data folder. */
function cli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, VAULT_DATA_DIR: dataDir },
    });
    children.add(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => {
      children.delete(child);
      resolve({ code, output });
    });
  });
}

interface Write {
  id: number;
  name: string;
  photoPath: string | null;
  /** When the request was sent and when its answer came (ms since the epoch). */
  sentAt: number;
  answeredAt: number;
}

/**
 * Clients POST entries (every other one with a photo) and replace the photo of one of their
 * own now and then, until `stop()` is true. Returns every acknowledged write, in order.
 */
function writeUntil(url: string, cookie: string, photo: Blob, stop: () => boolean) {
  const writes: Write[] = [];
  const refused: string[] = [];
  async function client(n: number) {
    const mine: number[] = [];
    for (let i = 0; !stop(); i++) {
      const body = new FormData();
      const replace = i % 4 === 3 ? mine.at(-1) : undefined;
      if (replace === undefined) {
        body.append('type', 'WINE');
        body.append('name', `Client ${n} entry ${i}`);
      }
      if (replace !== undefined || i % 2 === n % 2) body.append('photo', photo, 'bottle.jpg');
      const sentAt = Date.now();
      const res = await fetch(`${url}/api/beverages${replace === undefined ? '' : `/${replace}`}`, {
        method: replace === undefined ? 'POST' : 'PATCH',
        headers: { cookie, origin: url },
        body,
      });
      const answer = await json(res);
      if (!res.ok) {
        refused.push(`${res.status} ${JSON.stringify(answer)}`);
        continue;
      }
      const { id, name, photoPath } = answer.beverage;
      writes.push({ id, name, photoPath, sentAt, answeredAt: Date.now() });
      if (replace === undefined) mine.push(id);
    }
  }
  const done = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  return { writes, refused, done };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a backup made under write load', () => {
  it('restores every write acknowledged before the backup was asked for, with whole photos', async () => {
    const photo = new Blob([new Uint8Array(await jpeg(320, 240))], { type: 'image/jpeg' });
    let server = await startServer();
    const cookie = await signIn(server.url);

    let stopped = false;
    const load = writeUntil(server.url, cookie, photo, () => stopped);
    while (load.writes.length < 12) await pause(10);
    const backupAskedAt = Date.now();
    const made = await fetch(`${server.url}/api/backups`, {
      method: 'POST',
      headers: { cookie, origin: server.url },
    });
    const backupAnsweredAt = Date.now();
    expect(made.status).toBe(201);
    const { backup } = await json(made);
    // The writes go on after the backup, then stop.
    const after = load.writes.length;
    while (load.writes.length < after + 6) await pause(10);
    stopped = true;
    await load.done;
    expect(load.refused).toEqual([]);

    // The command line's backup works beside the running server.
    const byHand = await cli(['backup']);
    expect(byHand.output).toMatch(/Backed up the vault to .*vault-backup-.*-manual.*\.zip/);
    expect(byHand.code).toBe(0);

    // Downloaded (streamed) to a file outside the data folder.
    const res = await fetch(`${server.url}/api/backups/${backup.name}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const file = path.join(downloads, backup.name);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    expect(fs.statSync(file).size).toBe(backup.sizeBytes);

    // No restore while the server runs on the data folder; nothing changes.
    const refused = await cli(['restore', file]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('is running on');

    await stopServer(server);
    const restored = await cli(['restore', file]);
    expect(restored.output).toContain('Restored the backup');
    expect(restored.code).toBe(0);

    // Straight from the restored database: intact, with each acknowledged write.
    const db = new Database(path.join(dataDir, 'vault.sqlite'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = new Map(
      (
        db.prepare('select id, name, photo_path from beverages').all() as {
          id: number;
          name: string;
          photo_path: string | null;
        }[]
      ).map((r) => [r.id, r]),
    );
    db.close();
    const before = load.writes.filter((w) => w.answeredAt < backupAskedAt);
    expect(before.length).toBeGreaterThanOrEqual(12);
    // The last acknowledged state of each entry; an entry written again while the backup was
    // being made may hold that newer state.
    const last = new Map(before.map((w) => [w.id, w]));
    const touchedDuring = new Set(
      load.writes
        .filter((w) => w.sentAt < backupAnsweredAt && w.answeredAt >= backupAskedAt)
        .map((w) => w.id),
    );
    for (const [id, write] of last) {
      const row = rows.get(id);
      expect(row?.name).toBe(write.name);
      if (!touchedDuring.has(id)) expect(row?.photo_path).toBe(write.photoPath);
    }
    // Nothing written after the backup answered is in it.
    for (const w of load.writes.filter((w) => w.sentAt > backupAnsweredAt && !last.has(w.id))) {
      expect(rows.has(w.id)).toBe(false);
    }

    // The restored vault serves every photo its rows name, whole.
    server = await startServer();
    const reader = await signIn(server.url);
    const photos = [...rows.values()].filter((r) => r.photo_path);
    expect(photos.length).toBeGreaterThan(0);
    for (const row of photos) {
      const answer = await fetch(`${server.url}/${row.photo_path}`, {
        headers: { cookie: reader },
      });
      expect(answer.status).toBe(200);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      expect([bytes[0], bytes[1], bytes.at(-2), bytes.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    }
    // The backups folder survives a restore: both backups are still listed.
    const list = await json(
      await fetch(`${server.url}/api/backups`, { headers: { cookie: reader } }),
    );
    expect(list.backups).toHaveLength(2);
    await stopServer(server);
  }, 120_000);
});
