import { testMessageQueue } from '@fedify/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteMessageQueue } from '../../federation/message-queue.ts';
import { createFederationQueues } from '../../federation/queues.ts';
import { createDomainBlockMatcher } from '../../src/domain-blocks/matcher.ts';
import { durationFromMs } from '../../federation/temporal.ts';
import { tempDatabase } from './temp-database.ts';

let db: ReturnType<typeof tempDatabase>;

beforeAll(async () => {
  db = tempDatabase();
  await db.ready;
});
afterAll(() => db.remove());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await sleep(10);
  }
}

async function rowsLeft(): Promise<number> {
  const row = await db.database.database
    .prepare<{ n: number }>('SELECT count(*) AS n FROM federation_queue')
    .get();
  return row!.n;
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
  it("passes @fedify/testing's testMessageQueue, ordering keys included, with two connections to one database", async () => {
    let runs = 0;
    await testMessageQueue(
      () => new SqliteMessageQueue(db.open().database, { pollIntervalMs: 200 }),
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
    expect(await rowsLeft()).toBe(0);
  }, 30_000);

  it('delivers a message again when its handler throws, and deletes it only after success', async () => {
    const queue = new SqliteMessageQueue(db.database.database, { retryBaseMs: 50 });
    const seen: unknown[] = [];
    const stop = listen(queue, (message) => {
      seen.push(message);
      if (seen.length === 1) throw new Error('remote server is down');
    });
    await queue.enqueue({ type: 'outbox', activity: 'Create' });
    await until(() => seen.length === 1);
    // Failed: still in the table, released for a retry.
    expect(await rowsLeft()).toBe(1);
    await until(() => seen.length === 2);
    await until(async () => (await rowsLeft()) === 0);
    await stop();
    expect(seen).toEqual([
      { type: 'outbox', activity: 'Create' },
      { type: 'outbox', activity: 'Create' },
    ]);
  });

  it('does not deliver a delayed message before its delay has passed', async () => {
    const queue = new SqliteMessageQueue(db.database.database, { pollIntervalMs: 50 });
    const seen: { message: unknown; at: number }[] = [];
    const stop = listen(queue, (message) => {
      seen.push({ message, at: Date.now() });
    });
    // A delay far longer than the wait below, so a busy machine's stalls cannot outlast it; the
    // listener is stopped whatever happens, or it would take the next tests' messages.
    try {
      const enqueuedAt = Date.now();
      await queue.enqueue('later', { delay: durationFromMs(3_000) });
      await queue.enqueue('now');
      await until(() => seen.length === 1);
      expect(seen[0]!.message).toBe('now');
      await sleep(600);
      expect(seen).toHaveLength(1);
      expect(await queue.getDepth()).toEqual({ queued: 1, ready: 0, delayed: 1 });
      await until(() => seen.length === 2);
      expect(seen[1]!.message).toBe('later');
      expect(seen[1]!.at - enqueuedAt).toBeGreaterThanOrEqual(3_000);
    } finally {
      await stop();
    }
  });

  it('takes a message again when the listener that had it died before finishing (its lease ran out)', async () => {
    // The first listener takes the message and never finishes: then its process "dies" (close
    // stops it from renewing the lease or touching the database, as a dead process would).
    const dying = new SqliteMessageQueue(db.open().database, { leaseMs: 300 });
    let taken = false;
    const stopDying = listen(dying, () => {
      taken = true;
      return new Promise<void>(() => {});
    });
    await dying.enqueue({ survives: 'a crash' });
    await until(() => taken);
    dying.close();
    void stopDying();

    const heir = new SqliteMessageQueue(db.database.database, { pollIntervalMs: 50 });
    const seen: unknown[] = [];
    const startedAt = Date.now();
    const stop = listen(heir, (message) => {
      seen.push(message);
    });
    await until(() => seen.length === 1);
    await stop();
    expect(seen).toEqual([{ survives: 'a crash' }]);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(await rowsLeft()).toBe(0);
  });

  it('gives up on a message after the configured number of failed attempts', async () => {
    const queue = new SqliteMessageQueue(db.database.database, { maxAttempts: 3, retryBaseMs: 10 });
    let attempts = 0;
    const stop = listen(queue, () => {
      attempts += 1;
      throw new Error('always broken');
    });
    await queue.enqueue('poison');
    await until(async () => (await rowsLeft()) === 0);
    await sleep(100);
    await stop();
    expect(attempts).toBe(3);
  });

  it('handles messages with one ordering key one at a time and in order, even through a retry', async () => {
    const queue = new SqliteMessageQueue(db.database.database, { retryBaseMs: 20, concurrency: 4 });
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
    const queue = new SqliteMessageQueue(db.database.database);
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
    expect(await rowsLeft()).toBe(0);
  });

  it('handles at most perHostLimit messages of one host at a time, and takes other hosts meanwhile', async () => {
    const queue = new SqliteMessageQueue(db.database.database, {
      concurrency: 4,
      perHostLimit: 2,
      hostOf: (message) => (message as { host: string }).host,
    });
    const release: (() => void)[] = [];
    const running = new Map<string, number>();
    let mostOfSlow = 0;
    const done: string[] = [];
    const stop = listen(queue, async (message) => {
      const { host, n } = message as { host: string; n: number };
      running.set(host, (running.get(host) ?? 0) + 1);
      mostOfSlow = Math.max(mostOfSlow, running.get('slow.example') ?? 0);
      // The slow host's messages hang until released; the others finish at once.
      if (host === 'slow.example') await new Promise<void>((resolve) => release.push(resolve));
      running.set(host, running.get(host)! - 1);
      done.push(`${host} ${n}`);
    });
    for (let n = 1; n <= 6; n++) await queue.enqueue({ host: 'slow.example', n });
    await queue.enqueue({ host: 'quick.example', n: 1 });
    await queue.enqueue({ host: 'quick.example:8443', n: 2 });
    // The quick hosts' messages, enqueued last, are handled while two of the slow host's hang.
    await until(() => done.length === 2);
    expect(done).toEqual(['quick.example 1', 'quick.example:8443 2']);
    expect(release).toHaveLength(2);
    await sleep(100);
    expect(release).toHaveLength(2);
    expect(queue.inFlight).toBe(2);
    expect(await queue.getDepth()).toEqual({ queued: 4, ready: 4, delayed: 0 });
    // Each message of the slow host that finishes lets the next one in, never more than two.
    while (done.length < 8) {
      release.shift()?.();
      await sleep(10);
    }
    await stop();
    expect(mostOfSlow).toBe(2);
    expect(done.slice(2)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `slow.example ${n}`));
    expect(await rowsLeft()).toBe(0);
  });

  it('keeps channels apart: a listener takes only its own channel, which has a depth of its own', async () => {
    const inbox = new SqliteMessageQueue(db.database.database, { channel: 'inbox' });
    const outbox = new SqliteMessageQueue(db.database.database, { channel: 'deliveries' });
    const seen: unknown[] = [];
    await outbox.enqueue('a delivery');
    const stop = listen(inbox, (message) => void seen.push(message));
    await inbox.enqueue('an activity');
    await until(() => seen.length === 1);
    await sleep(100);
    expect(seen).toEqual(['an activity']);
    expect(await inbox.getDepth()).toEqual({ queued: 0, ready: 0, delayed: 0 });
    expect(await outbox.getDepth()).toEqual({ queued: 1, ready: 1, delayed: 0 });
    await stop();
    const stopOutbox = listen(outbox, (message) => void seen.push(message));
    await until(async () => (await rowsLeft()) === 0);
    await stopOutbox();
    expect(seen).toEqual(['an activity', 'a delivery']);
  });
  it('gives each message to one listener when listeners on two connections take at once', async () => {
    const options = { channel: 'shared', concurrency: 4, pollIntervalMs: 20 };
    const queues = [db.open(), db.open()].map((h) => new SqliteMessageQueue(h.database, options));
    const handled: number[] = [];
    const stops = queues.map((queue) =>
      listen(queue, async (message) => {
        handled.push((message as { n: number }).n);
        await sleep(5);
      }),
    );
    const numbers = Array.from({ length: 40 }, (_, n) => n);
    await queues[0]!.enqueueMany(numbers.map((n) => ({ n })));
    await until(() => handled.length >= 40);
    await sleep(100);
    for (const stop of stops) await stop();
    expect(handled.toSorted((a, b) => a - b)).toEqual(numbers);
  });

  it('drops a delivery to a server blocked since it was queued, and delivers the others', async () => {
    const blocks = createDomainBlockMatcher();
    const queues = createFederationQueues(db.database.database, {}, { domains: blocks });
    const delivery = (inbox: string) => ({ type: 'outbox', id: inbox, inbox });
    await queues.deliveries.enqueue(delivery('https://hostile.example/inbox'));
    await queues.deliveries.enqueue(delivery('https://friendly.example/inbox'));
    blocks.add('hostile.example');
    const seen: string[] = [];
    const stop = listen(
      queues.deliveries,
      (message) => void seen.push((message as { id: string }).id),
    );
    await until(async () => (await rowsLeft()) === 0);
    await stop();
    expect(seen).toEqual(['https://friendly.example/inbox']);
  });
});
