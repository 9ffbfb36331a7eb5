import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { processDatabase, startVaultProcess, type VaultProcess } from '../helpers/process.ts';

/**
 * The real server process, killed with SIGKILL while several clients log entries (some with
 * photos), then started again on the same data directory: every write it acknowledged must be
 * there with a whole photo, the database must be intact, and what the kill left half-done in
 * the uploads folder must be unreferenced and swept. On PostgreSQL the database outlives the
 * killed process; on SQLite the process held the file, checked for integrity after each kill.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-kill-'));
const uploadsDir = path.join(dataDir, 'uploads');
const database = await processDatabase(dataDir);
const PASSWORD = 'kill-under-load password';
const CLIENTS = 4;
const ROUNDS = 3;
const HOUR = 60 * 60_000;

const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Server = VaultProcess;

/** Starts `node src/main.ts` on the shared data directory; resolves once it listens. */
async function startServer(): Promise<Server> {
  const server = await startVaultProcess({
    VAULT_DATA_DIR: dataDir,
    VAULT_ADMIN_USERNAME: 'admin',
    VAULT_ADMIN_PASSWORD: PASSWORD,
    ...database.env,
  });
  children.add(server.child);
  void server.exited.then(() => children.delete(server.child));
  return server;
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('vault_session='));
  return cookie!.split(';')[0]!;
}

interface Acknowledged {
  id: number;
  name: string;
  photoPath: string | null;
}

/**
 * Clients POST entries (every other one with a photo) and now and then replace the photo of
 * one of their own, until the server dies. SIGKILL comes once the round has ten acknowledged
 * writes (or one, after five seconds; at most fifteen seconds), plus up to 100 ms so that it
 * lands mid-request. Returns the acknowledged state of each entry, and the entries whose replacement was cut off
 * (they may hold the old photo or the new one).
 */
async function writeUntilKilled(server: Server, cookie: string, photo: Blob, round: number) {
  const acknowledged = new Map<number, Acknowledged>();
  const cutOff = new Set<number>();
  const refused: string[] = [];
  let writes = 0;
  let killed = false;
  async function send(pathname: string, method: string, body: FormData): Promise<number | null> {
    const res = await fetch(`${server.url}${pathname}`, {
      method,
      headers: { cookie, origin: server.url },
      body,
    });
    const answer = await json(res);
    if (res.status !== (method === 'POST' ? 201 : 200)) {
      refused.push(`${method} ${res.status} ${JSON.stringify(answer)}`);
      return null;
    }
    acknowledged.set(answer.beverage.id, answer.beverage);
    writes++;
    return answer.beverage.id;
  }
  async function client(n: number) {
    const mine: number[] = [];
    for (let i = 0; !killed; i++) {
      const body = new FormData();
      const replace = i % 4 === 3 ? mine.at(-1) : undefined;
      if (replace === undefined) {
        body.append('type', 'WHISKEY');
        body.append('name', `Round ${round} client ${n} entry ${i}`);
      }
      if (replace !== undefined || i % 2 === n % 2) body.append('photo', photo, 'bottle.jpg');
      try {
        if (replace === undefined) {
          const id = await send('/api/beverages', 'POST', body);
          if (id !== null) mine.push(id);
        } else {
          cutOff.add(replace);
          await send(`/api/beverages/${replace}`, 'PATCH', body);
          cutOff.delete(replace);
        }
      } catch {
        // The connection died with the server: this write was never acknowledged.
      }
    }
  }
  const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
  const started = Date.now();
  const enough = () => writes >= 10 || (writes > 0 && Date.now() - started > 5_000);
  while (!enough() && Date.now() - started < 15_000) await pause(10);
  await pause(Math.random() * 100);
  server.child.kill('SIGKILL');
  await server.exited;
  killed = true;
  await Promise.all(clients);
  return { acknowledged, cutOff, refused };
}

/** Every photo path and avatar path the database references, read straight from it. */
async function checkDatabase(): Promise<Set<string>> {
  if (database.engine === 'sqlite') expect(database.sqliteIntegrity()).toBe('ok');
  const paths = await database.pluck<string>(
    `select photo_path from beverages where photo_path is not null
     union all select avatar_path from users where avatar_path is not null`,
  );
  return new Set(paths);
}

/** Stored paths ('media/…') of every file under the uploads folder. */
function uploadedFiles(): string[] {
  return fs
    .readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => `media/${path.relative(uploadsDir, path.join(d.parentPath, d.name))}`);
}

async function allEntries(url: string, cookie: string): Promise<Map<number, Acknowledged>> {
  const entries = new Map<number, Acknowledged>();
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await fetch(`${url}/api/beverages?limit=200${query}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const page = await json(res);
    for (const entry of page.beverages) entries.set(entry.id, entry);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

describe('the server process killed under write load', () => {
  it('keeps every acknowledged write with its photo, an intact database and a clean uploads folder', async () => {
    const photo = new Blob([new Uint8Array(await jpeg(320, 240))], { type: 'image/jpeg' });
    const acknowledged = new Map<number, Acknowledged>();
    let server = await startServer();
    for (let round = 1; round <= ROUNDS; round++) {
      const cookie = await signIn(server.url);
      const result = await writeUntilKilled(server, cookie, photo, round);
      expect(result.refused).toEqual([]);
      expect(result.acknowledged.size).toBeGreaterThan(0);
      for (const [id, entry] of result.acknowledged) acknowledged.set(id, entry);

      // Before the restart: the database is intact, and no row names a missing file.
      const referenced = await checkDatabase();
      const files = uploadedFiles();
      expect([...referenced].filter((p) => !files.includes(p))).toEqual([]);
      // Whatever the kill left unreferenced is young; age every file past the sweep's grace
      // period so that the restarted server's sweep must tell them apart by reference alone.
      const old = new Date(Date.now() - 2 * HOUR);
      for (const p of files)
        fs.utimesSync(path.join(uploadsDir, p.slice('media/'.length)), old, old);

      server = await startServer();
      const reader = await signIn(server.url);
      const entries = await allEntries(server.url, reader);
      for (const [id, written] of acknowledged) {
        const found = entries.get(id);
        expect(found?.name).toBe(written.name);
        // A replacement the kill cut off may have committed: then the entry has the new photo,
        // and that is its state from now on.
        if (result.cutOff.has(id) && found) acknowledged.set(id, found);
        else expect(found?.photoPath).toBe(written.photoPath);
      }
      for (const entry of entries.values()) {
        if (entry.photoPath) await expectWholeJpeg(server.url, entry.photoPath, reader);
      }
      await vi.waitFor(() => expect(server.output()).toContain('Swept the uploads folder'), {
        timeout: 30_000,
        interval: 20,
      });
      expect(uploadedFiles().sort()).toEqual([...(await checkDatabase())].sort());
    }
    expect([...acknowledged.values()].filter((a) => a.photoPath).length).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect((await checkDatabase()).size).toBeGreaterThan(0);
    // Three rounds of a server start, writes, a kill and a restart: on a machine whose cores
    // other jobs hold, a start alone has taken over 10 s.
  }, 180_000);
});

async function expectWholeJpeg(url: string, photoPath: string, cookie: string) {
  const res = await fetch(`${url}/${photoPath}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  // A JPEG starts with SOI (FF D8) and a whole one ends with EOI (FF D9).
  expect([bytes[0], bytes[1], bytes.at(-2), bytes.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
