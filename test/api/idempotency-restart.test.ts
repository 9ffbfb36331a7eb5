import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { startVault, type RunningVault } from '../../src/server.ts';
import { json } from '../helpers/json.ts';
import { freePort } from '../helpers/process.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, tempConfig } from '../helpers/vault.ts';

/*
 * A write whose answer never came because the server stopped (or crashed) while it ran: its
 * Idempotency-Key was claimed and never finished. After a restart, the same request with the
 * same key runs (an offline queue sending it again is not told 'still being processed' for a
 * day), while a key whose request had finished still answers its kept answer.
 */

const config: Config = tempConfig({ PORT: String(await freePort()), HOST: '127.0.0.1' });
const running: RunningVault[] = [];
afterAll(async () => {
  for (const vault of running) await vault.close().catch(() => undefined);
  fs.rmSync(config.dataDir, { recursive: true, force: true });
});

/** The vault on `config`'s data; each start on a port of its own (no kept-alive socket). */
async function start(): Promise<RunningVault> {
  const port = running.length === 0 ? config.port : await freePort();
  const vault = await startVault({ ...config, port }, { allowPrivateAddress: true });
  running.push(vault);
  return vault;
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

function createPlace(url: string, cookie: string, key: string, name: string) {
  return fetch(`${url}/api/cellar/places`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'idempotency-key': key },
    body: JSON.stringify({ name }),
  });
}

describe('Idempotency-Key across a restart', () => {
  it('forgets a key whose request never finished, and still replays one that did', async () => {
    const first = await start();
    const cookie = await signIn(first.url);
    const admin = (await first.ctx.users.findByUsername(ADMIN_USERNAME))!;
    const done = await createPlace(first.url, cookie, 'place-done', 'Kitchen fridge');
    expect(done.status).toBe(201);
    const doneAnswer = await json(done);
    // Claimed as a request does as it starts, and cut off by the stop before it finished.
    expect(
      await first.ctx.idempotency.start(admin.id, 'place-cut-off', 'the cut-off request'),
    ).toEqual(expect.objectContaining({ kind: 'run' }));
    const busy = await createPlace(first.url, cookie, 'place-cut-off', 'Basement');
    expect(busy.status).toBe(409);
    await first.close();

    const second = await start();
    const again = await createPlace(second.url, cookie, 'place-cut-off', 'Basement');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await createPlace(second.url, cookie, 'place-done', 'Kitchen fridge');
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(replayed)).toEqual(doneAnswer);
    const { places } = await json(
      await fetch(`${second.url}/api/cellar/places`, { headers: { cookie } }),
    );
    expect(places.map((place: { name: string }) => place.name).sort()).toEqual([
      'Basement',
      'Kitchen fridge',
    ]);
  });
});
