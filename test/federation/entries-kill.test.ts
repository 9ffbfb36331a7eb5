import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createActorRepository } from '../../src/actors/repository.ts';
import { openConfiguredDatabase } from '../../src/db/client.ts';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import type { Delivery } from '../helpers/fake-remote-records.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { freePort, startVaultProcess, type VaultProcess } from '../helpers/process.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * The real server process killed with SIGKILL right after it acknowledged a new entry, before
 * the entry went out: after the restart the remote follower receives its Create exactly once.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-entries-kill-'));
/** On PostgreSQL, the server's database (made before it starts, as it runs in a process). */
const postgres = testDatabase();
const PASSWORD = 'entries-kill password';
const children = new Set<ChildProcess>();
let remote: FakeRemote | undefined;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await remote?.close();
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A connection of the test's own to the server's database. */
function openServerDatabase() {
  return openConfiguredDatabase({
    databasePath: path.join(dataDir, 'vault.sqlite'),
    databaseUrl: postgres?.url ?? null,
    databasePoolSize: 2,
  });
}

async function startServer(port: number): Promise<VaultProcess> {
  const server = await startVaultProcess({
    VAULT_DATA_DIR: dataDir,
    VAULT_ADMIN_USERNAME: 'admin',
    VAULT_ADMIN_PASSWORD: PASSWORD,
    VAULT_ALLOW_PRIVATE_ADDRESS: 'true',
    // The same address after the restart: the Note's id and the signing key's URL stay.
    PORT: String(port),
    VAULT_ORIGIN: `http://127.0.0.1:${port}`,
    ...(postgres ? { VAULT_DATABASE_URL: postgres.url } : {}),
  });
  children.add(server.child);
  // The helper's own port is overridden by PORT above.
  return { ...server, port, url: `http://127.0.0.1:${port}` };
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

describe('an entry whose delivery a SIGKILL interrupted', () => {
  it('is delivered once to the remote follower after the restart', async () => {
    const port = await freePort();
    remote = await startFakeRemote();
    remote.addAccount('fan');
    await postgres?.create();
    let server = await startServer(port);
    const setUp = openServerDatabase();
    try {
      const db = setUp.database;
      const adminId = (await db
        .prepare("SELECT id FROM users WHERE username = 'admin'")
        .pluck<number>()
        .get())!;
      await db.prepare('UPDATE users SET activitypub_enabled = 1 WHERE id = ?').run(adminId);
      const actorId = await createActorRepository(db).localActorId(adminId);
      await insertRemoteFollower(db, actorId, remote, 'fan');
    } finally {
      await setUp.close();
    }

    const cookie = await signIn(server.url);
    const body = new FormData();
    body.append('type', 'WINE');
    body.append('name', 'Killed Before Delivery');
    const res = await fetch(`${server.url}/api/beverages`, {
      method: 'POST',
      headers: { cookie, origin: server.url },
      body,
    });
    // The entry committed; the federation (loaded by the first delivery) is not there yet.
    server.child.kill('SIGKILL');
    await server.exited;
    expect(res.status).toBe(201);
    const { beverage } = (await res.json()) as { beverage: { id: number } };
    const noteId = `${server.url}/users/admin/entries/${beverage.id}`;
    const isCreate = (d: Delivery) =>
      (d.activity as { type?: string; object?: { id?: string } }).type === 'Create' &&
      (d.activity as { object?: { id?: string } }).object?.id === noteId;
    expect(remote.deliveries.filter(isCreate)).toHaveLength(0);
    const check = openServerDatabase();
    try {
      // The kill came between the commit and the delivery: the outbox row is still there.
      const outbox = check.database.prepare('SELECT count(*) FROM outbox').pluck<number>();
      expect(await outbox.get()).toBeGreaterThan(0);
    } finally {
      await check.close();
    }

    server = await startServer(port);
    await remote.waitForDelivery(isCreate, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(remote.deliveries.filter(isCreate)).toHaveLength(1);
    expect(remote.deliveries.filter(isCreate)[0]!.activity).toMatchObject({
      id: `${noteId}#create`,
      to: `${server.url}/users/admin/followers`,
    });
    server.child.kill('SIGTERM');
    await server.exited;
  }, 60_000);
});
