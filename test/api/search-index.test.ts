import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold, searchWords } from '../../src/beverages/search-index.ts';
import { openConfiguredDatabase } from '../../src/db/client.ts';
import { OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from '../../src/db/read-cache.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let cookie: string;

beforeAll(async () => {
  vault = createTestVault();
  const sam = await vault.createUser({ username: 'sam' });
  cookie = await vault.login('sam', sam.password);
});
afterAll(() => vault.close());

function form(fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return body;
}

async function search(q: string): Promise<string[]> {
  const res = await vault.request(`/api/beverages?q=${encodeURIComponent(q)}`, { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { beverages: { name: string }[] }).beverages.map((b) => b.name);
}

describe('search', () => {
  it('folds case and accents the same way for entries and words, and drops control characters', () => {
    expect(fold('Château MARGAUX')).toBe('chateau margaux');
    expect(searchWords('  Château\u0001  42 ')).toEqual(['chateau', '42']);
    expect(searchWords(' \u0001 ')).toEqual([]);
  });

  it('finds an entry as soon as it is logged, follows its edits and forgets it when deleted', async () => {
    const created = await vault.request('/api/beverages', {
      method: 'POST',
      cookie,
      body: form({ name: 'Cask Strength 42', type: 'WHISKEY', subtype: 'Bourbon' }),
    });
    expect(created.status).toBe(201);
    const { beverage } = (await created.json()) as { beverage: { id: number } };
    expect(await search('cask 42')).toEqual(['Cask Strength 42']);

    const edited = await vault.request(`/api/beverages/${beverage.id}`, {
      method: 'PATCH',
      cookie,
      body: form({ name: 'Barrel Proof 43' }),
    });
    expect(edited.status).toBe(200);
    expect(await search('cask 42')).toEqual([]);
    expect(await search('proof 43')).toEqual(['Barrel Proof 43']);

    const deleted = await vault.request(`/api/beverages/${beverage.id}`, {
      method: 'DELETE',
      cookie,
    });
    expect(deleted.status).toBe(204);
    expect(await search('proof')).toEqual([]);
  });

  it('pages through search results with the cursor, filters applied, without gaps or repeats', async () => {
    for (let i = 1; i <= 7; i++) {
      const res = await vault.request('/api/beverages', {
        method: 'POST',
        cookie,
        body: form({ name: `Small Batch ${i}`, type: i % 2 ? 'WHISKEY' : 'BEER' }),
      });
      expect(res.status).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?q=batch&type=WHISKEY&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await vault.request(`/api/beverages${query}`, { cookie });
      const page = (await res.json()) as {
        beverages: { name: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.beverages.map((b) => b.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Small Batch 7', 'Small Batch 5', 'Small Batch 3', 'Small Batch 1']);
  });

  it('sees an entry written by another process within the documented window', async () => {
    expect(await search('imported')).toEqual([]);
    // Another process's connection to the same database.
    const other = openConfiguredDatabase(vault.config);
    try {
      const sam = (await vault.ctx.users.findByUsername('sam'))!;
      await other.database
        .prepare(
          `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
           values (?, 'BEER', 'Imported Ale', 'IPA', '', 3, '', 'TRIED', 0, ?, ?)`,
        )
        .run(sam.id, Date.now(), Date.now());
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, OTHER_PROCESS_WRITES_SEEN_WITHIN_MS + 50));
    expect(await search('imported')).toEqual(['Imported Ale']);
  });
});
