import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Outbox, formOf } from '../../web/src/offline/outbox.ts';
import { memoryStore, type NewChange } from '../../web/src/offline/outbox-store.ts';
import {
  changeOf,
  newIdempotencyKey,
  sendOrQueue,
  setCurrentOutbox,
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
  setCurrentOutbox(null);
});

describe('the offline queue', () => {
  it('sends the waiting changes one at a time, oldest first, each with its own key, and forgets them once answered', async () => {
    const outbox = new Outbox(memoryStore());
    const a = await outbox.enqueue(tasting(1, 'first'));
    const b = await outbox.enqueue(tasting(2, 'second'));
    const c = await outbox.enqueue(tasting(1, 'third'));
    expect(outbox.snapshot().waiting.map((change) => change.label)).toEqual([
      'Comment first',
      'Comment second',
      'Comment third',
    ]);
    const synced: string[][] = [];
    outbox.onSynced((changes) => synced.push(changes.map((change) => change.label)));
    const sent = vault(() => created());

    await outbox.sync();

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
    expect(outbox.snapshot()).toEqual({ waiting: [], refused: [], shown: [], syncing: false });
    expect(synced).toEqual([['Comment first', 'Comment second', 'Comment third']]);
  });

  it('keeps showing a sent change until the lists are fetched again, so its card never shows the older copy', async () => {
    const outbox = new Outbox(memoryStore());
    const a = await outbox.enqueue(tasting(1, 'first'));
    vault(() => created());
    let listsFetched: () => void = () => undefined;
    outbox.onSynced(() => new Promise<void>((resolve) => (listsFetched = resolve)));

    const syncing = outbox.sync();
    await vi.waitFor(() => expect(outbox.snapshot().waiting).toEqual([]));
    // Sent, no longer waiting to sync, but still shown where it belongs.
    expect(outbox.snapshot().shown.map((change) => change.seq)).toEqual([a.seq]);

    listsFetched();
    await syncing;
    expect(outbox.snapshot()).toEqual({ waiting: [], refused: [], shown: [], syncing: false });
  });

  it('stops at the first change that gets no answer and sends it again later with the same key, before the next', async () => {
    const outbox = new Outbox(memoryStore());
    const a = await outbox.enqueue(tasting(1, 'first'));
    const b = await outbox.enqueue(tasting(1, 'second'));
    let connected = false;
    const sent = vault(() => (connected ? created() : 'no answer'));

    await outbox.sync();
    expect(sent.map((request) => request.key)).toEqual([a.idempotencyKey]);
    expect(outbox.snapshot().waiting.map((change) => change.seq)).toEqual([a.seq, b.seq]);

    // Another try without a connection: still first, still the same key.
    await outbox.sync();
    connected = true;
    await outbox.sync();
    expect(sent.map((request) => request.key)).toEqual([
      a.idempotencyKey,
      a.idempotencyKey,
      a.idempotencyKey,
      b.idempotencyKey,
    ]);
    expect(outbox.snapshot().waiting).toEqual([]);
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
    const outbox = new Outbox(memoryStore());
    await outbox.enqueue(tasting(1, 'first'));
    await outbox.enqueue(tasting(1, 'second'));
    const sent = vault(() => answer());
    await outbox.sync();
    expect(sent).toHaveLength(1);
    expect(outbox.snapshot().waiting.map((change) => change.label)).toEqual([
      'Comment first',
      'Comment second',
    ]);
    expect(outbox.snapshot().refused).toEqual([]);
  });

  it('moves a change the vault refuses aside with its message, sends the rest, and forgets it when discarded', async () => {
    const outbox = new Outbox(memoryStore());
    const gone = await outbox.enqueue(tasting(7, 'on a deleted entry'));
    await outbox.enqueue(tasting(1, 'fine'));
    const sent = vault((request) =>
      request.url.includes('/7/') ? json({ message: 'Beverage not found' }, 404) : created(),
    );

    await outbox.sync();
    expect(sent.map((request) => request.url)).toEqual([
      '/api/beverages/7/comments',
      '/api/beverages/1/comments',
    ]);
    const { waiting, refused } = outbox.snapshot();
    expect(waiting).toEqual([]);
    expect(
      refused.map((change) => [change.label, change.refused?.status, change.refused?.message]),
    ).toEqual([['Comment on a deleted entry', 404, 'Beverage not found']]);

    // A refused change is not sent again.
    await outbox.enqueue(tasting(1, 'later'));
    await outbox.sync();
    expect(sent.map((request) => request.url)).toHaveLength(3);
    expect(outbox.snapshot().refused).toHaveLength(1);

    await outbox.discard(gone.seq);
    expect(outbox.snapshot()).toEqual({ waiting: [], refused: [], shown: [], syncing: false });
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
    const outbox = new Outbox(store);
    const gone = await outbox.enqueue(tasting(7, 'on a deleted entry'));
    vault(() => json({ message: 'Beverage not found' }, 404));
    await outbox.sync();
    expect(outbox.snapshot().refused).toHaveLength(1);

    await outbox.enqueue(tasting(1, 'in the basement'));
    vault(() => {
      holding = true;
      return 'no answer';
    });
    const syncing = outbox.sync();
    await vi.waitFor(() => expect(held).toHaveLength(1));
    holding = false;
    await outbox.discard(gone.seq);
    held[0]!();
    await syncing;

    const { waiting, refused, syncing: still } = outbox.snapshot();
    expect(refused).toEqual([]);
    expect(waiting.map((change) => change.label)).toEqual(['Comment in the basement']);
    expect(still).toBe(false);
  });

  it('joins a sync already running rather than sending anything twice', async () => {
    const outbox = new Outbox(memoryStore());
    await outbox.enqueue(tasting(1, 'only'));
    const sent = vault(() => created());
    await Promise.all([outbox.sync(), outbox.sync(), outbox.sync()]);
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
    const outbox = new Outbox(memoryStore());
    setCurrentOutbox(outbox);
    const sent = vault(() => created());
    const result = await sendOrQueue('POST /beverages', { form: form() }, 'Log Ardbeg Uigeadail');
    expect(result).toEqual({ queued: false, answer: { beverage: { id: 1 } } });
    expect(sent[0]!.key).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(outbox.snapshot().waiting).toEqual([]);
  });

  it('keeps the change with the key it was sent with when the request gets no answer', async () => {
    const outbox = new Outbox(memoryStore());
    setCurrentOutbox(outbox);
    const sent = vault((_, index) => (index === 0 ? 'no answer' : created()));
    const result = await sendOrQueue('POST /beverages', { form: form() }, 'Log Ardbeg Uigeadail');
    expect(result.queued).toBe(true);
    const [kept] = outbox.snapshot().waiting;
    expect(kept).toMatchObject({ route: 'POST /beverages', label: 'Log Ardbeg Uigeadail' });
    expect(kept!.idempotencyKey).toBe(sent[0]!.key);

    await outbox.sync();
    expect(sent.map((request) => request.key)).toEqual([
      kept!.idempotencyKey,
      kept!.idempotencyKey,
    ]);
    expect(outbox.snapshot().waiting).toEqual([]);
  });

  it('keeps the change without sending it while the browser is offline, and later ones behind it', async () => {
    const outbox = new Outbox(memoryStore());
    setCurrentOutbox(outbox);
    const sent = vault(() => created());
    vi.stubGlobal('navigator', { onLine: false });
    await sendOrQueue('POST /beverages', { form: form() }, 'Log first');
    expect(sent).toEqual([]);
    // Online again, but something waits: this one goes behind it, and the queue is sent.
    vi.stubGlobal('navigator', { onLine: true });
    const second = await sendOrQueue('POST /beverages', { form: form() }, 'Log second');
    expect(second.queued).toBe(true);
    await outbox.sync();
    expect(sent).toHaveLength(2);
    expect(outbox.snapshot().waiting).toEqual([]);
  });

  it('leaves an HTTP error to the caller and keeps nothing', async () => {
    const outbox = new Outbox(memoryStore());
    setCurrentOutbox(outbox);
    vault(() => json({ message: 'Name is required' }, 400));
    await expect(sendOrQueue('POST /beverages', { form: form() }, 'Log')).rejects.toThrow(
      'Name is required',
    );
    expect(outbox.snapshot().waiting).toEqual([]);
  });
});
