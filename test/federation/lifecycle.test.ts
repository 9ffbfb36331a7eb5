import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;

beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

function queued(): number {
  const row = vault.ctx.database.sqlite
    .prepare('SELECT count(*) AS n FROM federation_queue')
    .get() as { n: number };
  return row.n;
}

describe('the federation queue worker', () => {
  it('stops promptly, can be stopped twice, and leaves later messages in the table for the next start', async () => {
    const { federation } = vault.ctx;
    federation.startQueue();
    federation.startQueue();
    const started = Date.now();
    await federation.stop();
    await federation.stop();
    expect(Date.now() - started).toBeLessThan(1_000);

    // A running worker is woken by a local enqueue at once; a stopped one never takes it, and
    // starting again after stop (the database is about to close) does nothing.
    await federation.queue.enqueue({ type: 'kept for the next start' });
    federation.startQueue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queued()).toBe(1);
  });
});
