import { testMessageQueue } from '@fedify/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteMessageQueue } from '../../federation/message-queue.ts';
import { durationFromMs } from '../../federation/temporal.ts';
import { tempDatabase } from './sqlite-file.ts';

let db: ReturnType<typeof tempDatabase>;

beforeAll(() => {
  db = tempDatabase();
});
afterAll(() => db.remove());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(predicate: () => boolean, timeoutMs = 15_000) {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await sleep(10);
  }
}

function rowsLeft(): number {
  return (
    db.database.sqlite.prepare('SELECT count(*) AS n FROM federation_queue').get() as { n: number }
  ).n;
}

/** Runs a listener until the returned stop() is called. */
function listen(queue: SqliteMessageQueue, handler: (message: unknown) => Promise<void> | void) {
  const controller = new AbortController();
  const done = queue.listen(handler, { signal: controller.signal });
  return async () => {
    controller.abort();
    await done;
    await queue.drain(2_000);
  };
}

describe('SqliteMessageQueue', () => {
  it("passes @fedify/testing's testMessageQueue, ordering keys included, with two connections to one file", async () => {
    let runs = 0;
    await testMessageQueue(
      () => new SqliteMessageQueue(db.open().sqlite, { pollIntervalMs: 200 }),
      async ({ mq1, mq2, controller }) => {
        runs += 1;
        controller.abort();
        for (const mq of [mq1, mq2]) {
          await mq.drain(2_000);
          mq.close();
        }
      },
      { testOrderingKey: true },
    );
    expect(runs).toBe(1);
    expect(rowsLeft()).toBe(0);
  }, 30_000);

  it('delivers a message again when its handler throws, and deletes it only after success', async () => {
    const queue = new SqliteMessageQueue(db.database.sqlite, { retryBaseMs: 50 });
    const seen: unknown[] = [];
    const stop = listen(queue, (message) => {
      seen.push(message);
      if (seen.length === 1) throw new Error('remote server is down');
    });
    await queue.enqueue({ type: 'outbox', activity: 'Create' });
    await until(() => seen.length === 1);
    // Failed: still in the table, released for a retry.
    expect(rowsLeft()).toBe(1);
    await until(() => seen.length === 2);
    await until(() => rowsLeft() === 0);
    await stop();
    expect(seen).toEqual([
      { type: 'outbox', activity: 'Create' },
      { type: 'outbox', activity: 'Create' },
    ]);
  });

  it('does not deliver a delayed message before its delay has passed', async () => {
    const queue = new SqliteMessageQueue(db.database.sqlite, { pollIntervalMs: 50 });
    const seen: { message: unknown; at: number }[] = [];
    const stop = listen(queue, (message) => {
      seen.push({ message, at: Date.now() });
    });
    const enqueuedAt = Date.now();
    await queue.enqueue('later', { delay: durationFromMs(1_200) });
    await queue.enqueue('now');
    await until(() => seen.length === 1);
    expect(seen[0]!.message).toBe('now');
    await sleep(900);
    expect(seen).toHaveLength(1);
    expect(await queue.getDepth()).toEqual({ queued: 1, ready: 0, delayed: 1 });
    await until(() => seen.length === 2);
    await stop();
    expect(seen[1]!.message).toBe('later');
    expect(seen[1]!.at - enqueuedAt).toBeGreaterThanOrEqual(1_200);
  });

  it('takes a message again when the listener that had it died before finishing (its lease ran out)', async () => {
    // The first listener takes the message and never finishes: then its process "dies" (close
    // stops it from renewing the lease or touching the database, as a dead process would).
    const dying = new SqliteMessageQueue(db.open().sqlite, { leaseMs: 300 });
    let taken = false;
    const stopDying = listen(dying, () => {
      taken = true;
      return new Promise<void>(() => {});
    });
    await dying.enqueue({ survives: 'a crash' });
    await until(() => taken);
    dying.close();
    void stopDying();

    const heir = new SqliteMessageQueue(db.database.sqlite, { pollIntervalMs: 50 });
    const seen: unknown[] = [];
    const startedAt = Date.now();
    const stop = listen(heir, (message) => {
      seen.push(message);
    });
    await until(() => seen.length === 1);
    await stop();
    expect(seen).toEqual([{ survives: 'a crash' }]);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(rowsLeft()).toBe(0);
  });

  it('gives up on a message after the configured number of failed attempts', async () => {
    const queue = new SqliteMessageQueue(db.database.sqlite, { maxAttempts: 3, retryBaseMs: 10 });
    let attempts = 0;
    const stop = listen(queue, () => {
      attempts += 1;
      throw new Error('always broken');
    });
    await queue.enqueue('poison');
    await until(() => rowsLeft() === 0);
    await sleep(100);
    await stop();
    expect(attempts).toBe(3);
  });

  it('handles messages with one ordering key one at a time and in order, even through a retry', async () => {
    const queue = new SqliteMessageQueue(db.database.sqlite, { retryBaseMs: 20, concurrency: 4 });
    const events: string[] = [];
    let running = 0;
    let maxRunning = 0;
    let failedOnce = false;
    const stop = listen(queue, async (message) => {
      const { n } = message as { n: number };
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await sleep(20);
      running -= 1;
      if (n === 1 && !failedOnce) {
        failedOnce = true;
        events.push('1 failed');
        throw new Error('first try fails');
      }
      events.push(String(n));
    });
    for (const n of [1, 2, 3]) await queue.enqueue({ n }, { orderingKey: 'inbox.example' });
    await until(() => events.length === 4);
    await stop();
    expect(events).toEqual(['1 failed', '1', '2', '3']);
    expect(maxRunning).toBe(1);
  });

  it('lets drain wait for a running handler', async () => {
    const queue = new SqliteMessageQueue(db.database.sqlite);
    let finished = false;
    const controller = new AbortController();
    const listening = queue.listen(
      async () => {
        await sleep(300);
        finished = true;
      },
      { signal: controller.signal },
    );
    await queue.enqueue('slow');
    await until(() => queue.inFlight === 1);
    controller.abort();
    await listening;
    expect(finished).toBe(false);
    expect(await queue.drain(2_000)).toBe(true);
    expect(finished).toBe(true);
    expect(rowsLeft()).toBe(0);
  });
});
