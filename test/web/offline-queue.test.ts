import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OfflineQueue, formOf } from '../../web/src/offline/queue.ts';
import { memoryStore, type NewChange } from '../../web/src/offline/queue-store.ts';
import {
  changeOf,
  newIdempotencyKey,
  sendOrQueue,
  setCurrentQueue,
} from '../../web/src/offline/send-or-queue.ts';

interface Sent {
  url: string;
  method: string;
  key: string | undefined;
  body: unknown;
}

type Answer = Response | 'no answer';

/**
 * Replaces the global fetch (the process edge): each request is recorded and answered by
 * `answer`, or fails as a network error does (a TypeError) for 'no answer'.
 */
function vault(answer: (sent: Sent, index: number) => Answer): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const request = {
      url,
      method: init.method ?? 'GET',
      key: headers['Idempotency-Key'],
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    sent.push(request);
    const reply = answer(request, sent.length - 1);
    if (reply === 'no answer') throw new TypeError('Failed to fetch');
    return reply;
  });
  return sent;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
const created = () => json({ beverage: { id: 1 } }, 201);

let at = 1_000;
function tasting(id: number, notes: string): NewChange {
  at += 1;
  return changeOf(
    'POST /beverages/{id}/comments',
    { params: { id }, json: { body: notes } },
    `Comment ${notes}`,
    newIdempotencyKey(),
    at,
  );
}

beforeEach(() => {
  vi.stubGlobal('navigator', { onLine: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
  setCurrentQueue(null);
});

describe('the offline queue', () => {
  it('sends the waiting changes one at a time, oldest first, each with its own key, and forgets them once answered', async () => {
    const queue = new OfflineQueue(memoryStore());
    const a = await queue.enqueue(tasting(1, 'first'));
    const b = await queue.enqueue(tasting(2, 'second'));
    const c = await queue.enqueue(tasting(1, 'third'));
    expect(queue.snapshot().waiting.map((change) => change.label)).toEqual([
      'Comment first',
      'Comment second',
      'Comment third',
    ]);
    const synced: string[][] = [];
    queue.onSynced((changes) => synced.push(changes.map((change) => change.label)));
    const sent = vault(() => created());

    await queue.sync();

    expect(sent.map(({ url, method, key, body }) => ({ url, method, key, body }))).toEqual([
      {
        url: '/api/beverages/1/comments',
        method: 'POST',
        key: a.idempotencyKey,
        body: { body: 'first' },
      },
      {
        url: '/api/beverages/2/comments',
        method: 'POST',
        key: b.idempotencyKey,
        body: { body: 'second' },
      },
      {
        url: '/api/beverages/1/comments',
        method: 'POST',
        key: c.idempotencyKey,
        body: { body: 'third' },
      },
    ]);
    expect(new Set([a, b, c].map((change) => change.idempotencyKey)).size).toBe(3);
    expect(queue.snapshot()).toEqual({ waiting: [], refused: [], shown: [], syncing: false });
    expect(synced).toEqual([['Comment first', 'Comment second', 'Comment third']]);
  });

  it('keeps showing a sent change until the lists are fetched again, so its card never shows the older copy', async () => {
    const queue = new OfflineQueue(memoryStore());
    const a = await queue.enqueue(tasting(1, 'first'));
    vault(() => created());
    let listsFetched: () => void = () => undefined;
    queue.onSynced(() => new Promise<void>((resolve) => (listsFetched = resolve)));

    const syncing = queue.sync();
    await vi.waitFor(() => expect(queue.snapshot().waiting).toEqual([]));
    // Sent, no longer waiting to sync, but still shown where it belongs.
    expect(queue.snapshot().shown.map((change) => change.seq)).toEqual([a.seq]);

    listsFetched();
    await syncing;
    expect(queue.snapshot()).toEqual({ waiting: [], refused: [], shown: [], syncing: false });
  });

  it('stops at the first change that gets no answer and sends it again later with the same key, before the next', async () => {
    const queue = new OfflineQueue(memoryStore());
    const a = await queue.enqueue(tasting(1, 'first'));
    const b = await queue.enqueue(tasting(1, 'second'));
    let connected = false;
    const sent = vault(() => (connected ? created() : 'no answer'));

    await queue.sync();
    expect(sent.map((request) => request.key)).toEqual([a.idempotencyKey]);
    expect(queue.snapshot().waiting.map((change) => change.seq)).toEqual([a.seq, b.seq]);

    // Another try without a connection: still first, still the same key.
    await queue.sync();
    connected = true;
    await queue.sync();
    expect(sent.map((request) => request.key)).toEqual([
      a.idempotencyKey,
      a.idempotencyKey,
      a.idempotencyKey,
      b.idempotencyKey,
    ]);
    expect(queue.snapshot().waiting).toEqual([]);
  });

  it.each([
    ['a server error', () => json({ message: 'Internal error' }, 500)],
    ['a 503', () => json({ message: 'Starting up' }, 503)],
    ['too many requests', () => json({ message: 'Slow down' }, 429)],
    ['a timeout', () => json({ message: 'Request timeout' }, 408)],
    ['an ended session', () => json({ message: 'Not signed in' }, 401)],
    [
      'the same key still being processed',
      () =>
        json(
          {
            message:
              'A request with this Idempotency-Key is still being processed; try again once it has finished',
          },
          409,
        ),
    ],
  ])('keeps a change answered with %s, and what follows it, for later', async (_, answer) => {
    const queue = new OfflineQueue(memoryStore());
    await queue.enqueue(tasting(1, 'first'));
    await queue.enqueue(tasting(1, 'second'));
    const sent = vault(() => answer());
    await queue.sync();
    expect(sent).toHaveLength(1);
    expect(queue.snapshot().waiting.map((change) => change.label)).toEqual([
      'Comment first',
      'Comment second',
    ]);
    expect(queue.snapshot().refused).toEqual([]);
  });

  it('moves a change the vault refuses aside with its message, sends the rest, and forgets it when discarded', async () => {
    const queue = new OfflineQueue(memoryStore());
    const gone = await queue.enqueue(tasting(7, 'on a deleted entry'));
    await queue.enqueue(tasting(1, 'fine'));
    const sent = vault((request) =>
      request.url.includes('/7/') ? json({ message: 'Beverage not found' }, 404) : created(),
    );

    await queue.sync();
    expect(sent.map((request) => request.url)).toEqual([
      '/api/beverages/7/comments',
      '/api/beverages/1/comments',
    ]);
    const { waiting, refused } = queue.snapshot();
    expect(waiting).toEqual([]);
    expect(
      refused.map((change) => [change.label, change.refused?.status, change.refused?.message]),
    ).toEqual([['Comment on a deleted entry', 404, 'Beverage not found']]);

    // A refused change is not sent again.
    await queue.enqueue(tasting(1, 'later'));
    await queue.sync();
    expect(sent.map((request) => request.url)).toHaveLength(3);
    expect(queue.snapshot().refused).toHaveLength(1);

    await queue.discard(gone.seq);
    expect(queue.snapshot()).toEqual({ waiting: [], refused: [], shown: [], syncing: false });
  });

  it('does not bring back a discarded change when a read begun before the discard answers after it', async () => {
    // The store reads what it holds at once but may answer late, as an IndexedDB read begun
    // before a write does: here the read that ends a sync is held until the discard is done.
    const base = memoryStore();
    const held: Array<() => void> = [];
    let holding = false;
    const store = {
      ...base,
      list: async () => {
        const now = await base.list();
        if (holding) await new Promise<void>((release) => held.push(release));
        return now;
      },
    };
    const queue = new OfflineQueue(store);
    const gone = await queue.enqueue(tasting(7, 'on a deleted entry'));
    vault(() => json({ message: 'Beverage not found' }, 404));
    await queue.sync();
    expect(queue.snapshot().refused).toHaveLength(1);

    await queue.enqueue(tasting(1, 'in the basement'));
    vault(() => {
      holding = true;
      return 'no answer';
    });
    const syncing = queue.sync();
    await vi.waitFor(() => expect(held).toHaveLength(1));
    holding = false;
    await queue.discard(gone.seq);
    held[0]!();
    await syncing;

    const { waiting, refused, syncing: still } = queue.snapshot();
    expect(refused).toEqual([]);
    expect(waiting.map((change) => change.label)).toEqual(['Comment in the basement']);
    expect(still).toBe(false);
  });

  it('joins a sync already running rather than sending anything twice', async () => {
    const queue = new OfflineQueue(memoryStore());
    await queue.enqueue(tasting(1, 'only'));
    const sent = vault(() => created());
    await Promise.all([queue.sync(), queue.sync(), queue.sync()]);
    expect(sent).toHaveLength(1);
  });

  it('keeps a form field by field, the photo with its name, and sends it in the same order', () => {
    const photo = new File([new Uint8Array([1, 2, 3])], 'IMG_0001.jpg', { type: 'image/jpeg' });
    const form = new FormData();
    form.set('name', 'Ardbeg Uigeadail');
    form.set('photo', photo);
    form.set('type', 'WHISKEY');
    const change = changeOf('POST /beverages', { form }, 'Log Ardbeg Uigeadail', 'key-1', 5);
    expect(change.form?.map((field) => field.name)).toEqual(['name', 'photo', 'type']);
    const rebuilt = formOf({ ...change, seq: 1 });
    expect([...rebuilt!.keys()]).toEqual(['name', 'photo', 'type']);
    const file = rebuilt!.get('photo') as File;
    expect([file.name, file.type, file.size]).toEqual(['IMG_0001.jpg', 'image/jpeg', 3]);
    expect(rebuilt!.get('name')).toBe('Ardbeg Uigeadail');
  });
});

describe('sendOrQueue', () => {
  const form = () => {
    const data = new FormData();
    data.set('name', 'Ardbeg Uigeadail');
    data.set('type', 'WHISKEY');
    return data;
  };

  it('sends at once with an Idempotency-Key and answers the vault answer', async () => {
    const queue = new OfflineQueue(memoryStore());
    setCurrentQueue(queue);
    const sent = vault(() => created());
    const result = await sendOrQueue('POST /beverages', { form: form() }, 'Log Ardbeg Uigeadail');
    expect(result).toEqual({ queued: false, answer: { beverage: { id: 1 } } });
    expect(sent[0]!.key).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(queue.snapshot().waiting).toEqual([]);
  });

  it('keeps the change with the key it was sent with when the request gets no answer', async () => {
    const queue = new OfflineQueue(memoryStore());
    setCurrentQueue(queue);
    const sent = vault((_, index) => (index === 0 ? 'no answer' : created()));
    const result = await sendOrQueue('POST /beverages', { form: form() }, 'Log Ardbeg Uigeadail');
    expect(result.queued).toBe(true);
    const [kept] = queue.snapshot().waiting;
    expect(kept).toMatchObject({ route: 'POST /beverages', label: 'Log Ardbeg Uigeadail' });
    expect(kept!.idempotencyKey).toBe(sent[0]!.key);

    await queue.sync();
    expect(sent.map((request) => request.key)).toEqual([
      kept!.idempotencyKey,
      kept!.idempotencyKey,
    ]);
    expect(queue.snapshot().waiting).toEqual([]);
  });

  it('keeps the change without sending it while the browser is offline, and later ones behind it', async () => {
    const queue = new OfflineQueue(memoryStore());
    setCurrentQueue(queue);
    const sent = vault(() => created());
    vi.stubGlobal('navigator', { onLine: false });
    await sendOrQueue('POST /beverages', { form: form() }, 'Log first');
    expect(sent).toEqual([]);
    // Online again, but something waits: this one goes behind it, and the queue is sent.
    vi.stubGlobal('navigator', { onLine: true });
    const second = await sendOrQueue('POST /beverages', { form: form() }, 'Log second');
    expect(second.queued).toBe(true);
    await queue.sync();
    expect(sent).toHaveLength(2);
    expect(queue.snapshot().waiting).toEqual([]);
  });

  it('leaves an HTTP error to the caller and keeps nothing', async () => {
    const queue = new OfflineQueue(memoryStore());
    setCurrentQueue(queue);
    vault(() => json({ message: 'Name is required' }, 400));
    await expect(sendOrQueue('POST /beverages', { form: form() }, 'Log')).rejects.toThrow(
      'Name is required',
    );
    expect(queue.snapshot().waiting).toEqual([]);
  });
});
