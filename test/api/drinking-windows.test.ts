import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beveragePageSchema, beverageResponseSchema } from '../../contract/beverages.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The vault's clock: 31 December 2026, noon UTC, until a test moves it (windows go by its year).
let clock = Date.UTC(2026, 11, 31, 12);

let vault: TestVault;
let alice: string;
let bob: string;

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  const a = await vault.createUser({ username: 'alice' });
  const b = await vault.createUser({ username: 'bob' });
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
});
afterAll(() => vault.close());

function form(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

async function patch(cookie: string, id: number, fields: Record<string, string>) {
  return vault.request(`/api/beverages/${id}`, { method: 'PATCH', body: form(fields), cookie });
}

async function patched(cookie: string, id: number, fields: Record<string, string>) {
  const res = await patch(cookie, id, fields);
  expect(res.status, await res.clone().text()).toBe(200);
  return beverageResponseSchema.parse(await res.json()).beverage;
}

async function refusal(res: Response) {
  return { status: res.status, message: (await json(res)).message as string };
}

/** The names of a GET /api/beverages answer, every page followed. */
async function names(cookie: string, query: string): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${cursor}` : '';
    const res = await vault.request(`/api/beverages?${query}&limit=2${after}`, { cookie });
    expect(res.status, await res.clone().text()).toBe(200);
    const page = beveragePageSchema.parse(await res.json());
    found.push(...page.beverages.map((b) => b.name));
    cursor = page.nextCursor;
  } while (cursor);
  return found.sort();
}

describe('the drinking window of an entry', () => {
  it('is set when logging, shown to whoever sees the entry, changed and cleared by PATCH', async () => {
    const made = await vault.logEntry(alice, {
      name: 'Musar 2015',
      type: 'WINE',
      drinkFrom: '2024',
      drinkUntil: '2032',
    });
    expect([made.drinkFrom, made.drinkUntil]).toEqual([2024, 2032]);

    // An ordinary field: bob, a member, sees it (the entry is MEMBERS by default).
    const seen = await vault.request(`/api/beverages/${made.id}`, { cookie: bob });
    expect((await json(seen)).beverage).toMatchObject({ drinkFrom: 2024, drinkUntil: 2032 });

    expect(await patched(alice, made.id, { drinkUntil: '2030' })).toMatchObject({
      drinkFrom: 2024,
      drinkUntil: 2030,
    });
    // An empty field clears its bound; the other stays.
    expect(await patched(alice, made.id, { drinkFrom: '' })).toMatchObject({
      drinkFrom: null,
      drinkUntil: 2030,
    });
    // A PATCH without the fields leaves the window as it is.
    expect(await patched(alice, made.id, { rating: '4' })).toMatchObject({
      drinkFrom: null,
      drinkUntil: 2030,
    });
    const plain = await vault.logEntry(alice, { name: 'Plain', type: 'BEER' });
    expect([plain.drinkFrom, plain.drinkUntil]).toEqual([null, null]);
  });

  it('refuses years outside 1800-2200 and a window that ends before it starts', async () => {
    const entry = await vault.logEntry(alice, { name: 'Refused', type: 'WINE' });
    const yearMessage = 'Drinking window years must be from 1800 to 2200';
    for (const value of ['1799', '2201', '20x5', '-2020', '202', '2020.5']) {
      expect(await refusal(await patch(alice, entry.id, { drinkFrom: value }))).toEqual({
        status: 400,
        message: yearMessage,
      });
    }
    const order = { status: 400, message: 'The drinking window cannot end before it starts' };
    expect(
      await refusal(await patch(alice, entry.id, { drinkFrom: '2030', drinkUntil: '2029' })),
    ).toEqual(order);
    // Against the bound already stored, too.
    await patched(alice, entry.id, { drinkFrom: '2030' });
    expect(await refusal(await patch(alice, entry.id, { drinkUntil: '2025' }))).toEqual(order);
    const logged = await vault.request('/api/beverages', {
      method: 'POST',
      body: form({ name: 'Bad', type: 'WINE', drinkFrom: '2031', drinkUntil: '2030' }),
      cookie: alice,
    });
    expect(await refusal(logged)).toEqual(order);
    // A one-year window is fine.
    expect(await patched(alice, entry.id, { drinkUntil: '2030' })).toMatchObject({
      drinkFrom: 2030,
      drinkUntil: 2030,
    });
  });

  it('goes with the entry into a clone', async () => {
    const source = await vault.logEntry(alice, {
      name: 'Cloned',
      type: 'WINE',
      drinkFrom: '2027',
      drinkUntil: '2040',
    });
    const res = await vault.request(`/api/beverages/${source.id}/clone`, {
      method: 'POST',
      cookie: bob,
    });
    expect(res.status).toBe(201);
    const copy = beverageResponseSchema.parse(await res.json()).beverage;
    expect(copy).toMatchObject({ userId: expect.any(Number), drinkFrom: 2027, drinkUntil: 2040 });
    expect(copy.userId).not.toBe(source.userId);
  });
});

describe('GET /api/beverages?window=', () => {
  let carol: string;

  beforeAll(async () => {
    const c = await vault.createUser({ username: 'carol' });
    carol = await vault.login('carol', c.password);
    const windows: [string, string, string][] = [
      ['Open both', '', ''],
      ['From 2024', '2024', ''],
      ['Until 2025', '', '2025'],
      ['Until 2026', '', '2026'],
      ['2026 only', '2026', '2026'],
      ['2027 on', '2027', '2035'],
      ['2020-2024', '2020', '2024'],
    ];
    for (const [name, drinkFrom, drinkUntil] of windows) {
      await vault.logEntry(carol, { name, type: 'WINE', drinkFrom, drinkUntil, notes: 'cellar' });
    }
  });

  it('lists the entries inside, past and before their window by the clock year', async () => {
    clock = Date.UTC(2026, 11, 31, 12);
    expect(await names(carol, 'window=NOW')).toEqual(['2026 only', 'From 2024', 'Until 2026']);
    expect(await names(carol, 'window=PAST')).toEqual(['2020-2024', 'Until 2025']);
    expect(await names(carol, 'window=LATER')).toEqual(['2027 on']);

    // The same lists searched (the in-memory search index) give the same answer.
    expect(await names(carol, 'window=NOW&q=cellar')).toEqual([
      '2026 only',
      'From 2024',
      'Until 2026',
    ]);
    expect(await names(carol, 'window=PAST&q=cellar')).toEqual(['2020-2024', 'Until 2025']);
  });

  it('moves the entries as the year turns, with no write in between', async () => {
    clock = Date.UTC(2026, 11, 31, 23, 59);
    expect(await names(carol, 'window=NOW')).toEqual(['2026 only', 'From 2024', 'Until 2026']);
    clock = Date.UTC(2027, 0, 1, 0, 1);
    expect(await names(carol, 'window=NOW')).toEqual(['2027 on', 'From 2024']);
    expect(await names(carol, 'window=PAST')).toEqual([
      '2020-2024',
      '2026 only',
      'Until 2025',
      'Until 2026',
    ]);
    expect(await names(carol, 'window=LATER')).toEqual([]);
    expect(await names(carol, 'window=PAST&q=cellar')).toEqual([
      '2020-2024',
      '2026 only',
      'Until 2025',
      'Until 2026',
    ]);
    clock = Date.UTC(2026, 11, 31, 12);
  });

  it('filters the entries shared with the caller by their window too', async () => {
    const shared = await vault.logEntry(alice, {
      name: 'Shared past',
      type: 'WINE',
      drinkUntil: '2020',
    });
    const bobId = (await vault.ctx.users.findByUsername('bob'))!.id;
    const share = await vault.postJson(
      `/api/beverages/${shared.id}/share`,
      { userId: bobId },
      alice,
    );
    expect(share.status, await share.clone().text()).toBe(200);
    await vault.ctx.outbox.idle();
    const notes = await json(await vault.request('/api/notifications', { cookie: bob }));
    const invite = notes.notifications.find(
      (n: { beverage?: { id: number } }) => n.beverage?.id === shared.id,
    );
    const accepted = await vault.postJson(
      `/api/notifications/${invite.id}/respond`,
      { action: 'ACCEPT', status: 'TRIED' },
      bob,
    );
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect(await names(bob, 'window=PAST')).toContain('Shared past');
    expect(await names(bob, 'window=NOW')).not.toContain('Shared past');
  });

  it('refuses a window it does not know', async () => {
    const res = await vault.request('/api/beverages?window=SOON', { cookie: carol });
    expect(await refusal(res)).toEqual({
      status: 400,
      message: 'window must be NOW, PAST or LATER',
    });
  });
});
