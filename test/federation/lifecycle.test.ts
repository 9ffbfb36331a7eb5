import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;

beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

async function queued(): Promise<number> {
  const row = await vault.ctx.database.database
    .prepare<{ n: number }>('SELECT count(*) AS n FROM federation_queue')
    .get();
  return row!.n;
}

describe('the federation queue worker', () => {
  it('stops promptly, can be stopped twice, and leaves later messages in the table for the next start', async () => {
    const { federation } = vault.ctx;
    const loaded = await federation.load();
    federation.startQueue();
    federation.startQueue();
    const started = Date.now();
    await federation.stop();
    await federation.stop();
    expect(Date.now() - started).toBeLessThan(1_000);

    // A running worker is woken by a local enqueue at once; a stopped one never takes it, and
    // starting again after stop (the database is about to close) does nothing.
    await loaded.queue.deliveries.enqueue({ type: 'kept for the next start' });
    federation.startQueue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await queued()).toBe(1);
    await expect(federation.load()).rejects.toThrow(/stopped/);
  });
});

describe('Fedify, loaded on demand', () => {
  it('is not loaded by API, image and client requests, and is loaded by the first WebFinger request', async () => {
    const fresh = createTestVault();
    try {
      await fresh.createUser({ username: 'alice', activityPubEnabled: true });
      for (const path of ['/api/auth/me', '/media/nothing.jpg', '/', '/users/alice']) {
        await fresh.request(path);
      }
      expect(fresh.ctx.federation.current()).toBeUndefined();
      const host = new URL(fresh.origin).host;
      const res = await fresh.request(`/.well-known/webfinger?resource=acct:alice@${host}`);
      expect(res.status).toBe(200);
      expect(fresh.ctx.federation.current()).toBeDefined();
    } finally {
      await fresh.close();
    }
  });

  it('is loaded at start when the queue holds work left from the last run', async () => {
    const first = createTestVault();
    const loaded = await first.ctx.federation.load();
    await loaded.queue.deliveries.enqueue({ type: 'left from the last run' });
    const pending = await first.ctx.database.database
      .prepare<{ n: number }>('SELECT count(*) AS n FROM federation_queue')
      .get();
    expect(pending!.n).toBe(1);
    await first.ctx.federation.stop();
    await first.ctx.database.close();

    // The same data folder, and on PostgreSQL the same database.
    const { dataDir, databaseUrl } = first.config;
    const second = createTestVault({
      env: { VAULT_DATA_DIR: dataDir, ...(databaseUrl ? { VAULT_DATABASE_URL: databaseUrl } : {}) },
    });
    try {
      expect(second.ctx.federation.current()).toBeUndefined();
      second.ctx.federation.startQueue();
      await expect.poll(() => second.ctx.federation.current(), { timeout: 15_000 }).toBeDefined();
    } finally {
      await second.close();
    }
  });
});
