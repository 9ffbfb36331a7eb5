import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Beverage } from '../../contract/beverages.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// List pages are serialized by SQLite (src/beverages/list-statements.ts) and completed for the
// viewer (src/beverages/present.ts); one entry is presented from a JavaScript object. Both must
// give the same entry, whatever its text holds.

let vault: TestVault;
let samCookie: string;
let adminCookie: string;
const ODD_TEXT = [
  'Quotes " and \\ backslashes \\"',
  'Lines\nand\ttabs\r\n and control \u0001\u001f characters',
  'Château d’Yquem, Ürige, ñ, 日本酒 and 🥃 emoji',
  '</script><script>alert(1)</script> & <b>',
  '',
];

beforeAll(async () => {
  vault = createTestVault();
  const sam = await vault.createUser({ username: 'sam', fullName: 'Sam "the" O\u2019Brien \\' });
  samCookie = await vault.login('sam', sam.password);
  adminCookie = await vault.login(
    'boss',
    (await vault.createUser({ username: 'boss', role: 'ADMIN' })).password,
  );
  const insert = vault.ctx.database.database.prepare(
    `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, photo_path, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Milliseconds at the edges of the ISO form: .000, .001, .999, and dates before 2000.
  const times = [0, 1, 999, 946_684_799_999, 1_700_000_000_000, 1_767_225_599_999];
  for (const [i, text] of ODD_TEXT.entries()) {
    await insert.run(
      sam.id,
      ['WHISKEY', 'WINE', 'BEER'][i % 3],
      text || 'x',
      'Other',
      text,
      i % 6,
      text,
      i % 2 ? 'TRIED' : 'TO_TRY',
      i % 2,
      i % 2 ? 'media/abc.jpg' : null,
      times[i]!,
      times[i]!,
    );
  }
});
afterAll(() => vault.close());

async function getJson<T>(path: string, cookie: string): Promise<T> {
  const res = await vault.request(path, { cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as T;
}

describe('an entry in a list page', () => {
  it('is field for field the entry that GET /api/beverages/{id} returns, for its owner', async () => {
    const page = await getJson<{ beverages: Beverage[] }>('/api/beverages?limit=50', samCookie);
    expect(page.beverages).toHaveLength(ODD_TEXT.length);
    for (const listed of page.beverages) {
      const one = await getJson<{ beverage: Beverage }>(`/api/beverages/${listed.id}`, samCookie);
      expect(listed).toStrictEqual(one.beverage);
    }
  });

  it('is the same for another viewer and in search results', async () => {
    const { beverages } = await getJson<{ beverages: Beverage[] }>(
      '/api/beverages?limit=50',
      samCookie,
    );
    const samId = beverages[0]!.userId;
    const other = await getJson<{ beverages: Beverage[] }>(
      `/api/beverages?userId=${samId}&limit=50`,
      adminCookie,
    );
    const found = await getJson<{ beverages: Beverage[] }>(
      `/api/beverages?q=${encodeURIComponent('château')}`,
      samCookie,
    );
    expect(found.beverages.map((b) => b.name)).toEqual([ODD_TEXT[2]]);
    for (const listed of [...other.beverages, ...found.beverages]) {
      const viewer = listed === found.beverages[0] ? samCookie : adminCookie;
      const one = await getJson<{ beverage: Beverage }>(`/api/beverages/${listed.id}`, viewer);
      expect(listed).toStrictEqual(one.beverage);
    }
    expect(other.beverages.every((b) => !b.isOwner)).toBe(true);
  });

  it('writes createdAt as Date.toISOString does', async () => {
    const { beverages } = await getJson<{ beverages: Beverage[] }>(
      '/api/beverages?limit=50',
      samCookie,
    );
    expect(beverages.map((b) => b.createdAt).sort()).toEqual(
      [0, 1, 999, 946_684_799_999, 1_700_000_000_000].map((t) => new Date(t).toISOString()).sort(),
    );
  });
});
