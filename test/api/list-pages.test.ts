import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlFor, type SqlText } from '../../src/db/database.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// A list page asked again before anything is written is the page already read: SQLite is not
// asked again (each statement outside a transaction takes and releases file locks, which cost
// more than the indexed read). A write shows at once. (Another process's writes: the read
// cache's own tests, test/api/read-cache.test.ts.)

let vault: TestVault;
let cookie: string;
/** How many times a statement of list pages (src/beverages/list-statements.ts) ran. */
let pageReads = 0;

beforeAll(async () => {
  vault = createTestVault();
  const db = vault.ctx.database.database;
  const prepare = db.prepare.bind(db);
  // Counts the runs of the list statements, prepared on the first list request after this.
  db.prepare = function <Row>(text: SqlText) {
    const statement = prepare<Row>(text);
    if (sqlFor(text, db.engine).startsWith('select id, user_id, created_at from beverages')) {
      const all = statement.all.bind(statement);
      statement.all = (...args: unknown[]) => {
        pageReads++;
        return all(...args);
      };
    }
    return statement;
  };
  const user = await vault.createUser({ username: 'lister' });
  cookie = await vault.login('lister', user.password);
});
afterAll(() => vault.close());

async function names(query: string): Promise<string[]> {
  const res = await vault.request(`/api/beverages${query}`, { cookie });
  expect(res.status).toBe(200);
  const { beverages } = (await res.json()) as { beverages: { name: string }[] };
  return beverages.map((b) => b.name);
}

async function log(name: string) {
  const body = new FormData();
  body.append('name', name);
  body.append('type', 'WINE');
  body.append('status', 'TO_TRY');
  const res = await vault.request('/api/beverages', { method: 'POST', body, cookie });
  expect(res.status).toBe(201);
  // The delivery of its Create writes too (the outbox row goes): done before the reads below.
  await vault.ctx.outbox.idle();
}

describe('a list page', () => {
  it('is read from SQLite once while nothing is written, and again after a write', async () => {
    const dashboard = '?type=WINE&status=TO_TRY&limit=4';
    await log('First wine');
    const before = pageReads;
    expect(await names(dashboard)).toEqual(['First wine']);
    expect(await names(dashboard)).toEqual(['First wine']);
    expect(await names(dashboard)).toEqual(['First wine']);
    expect(pageReads - before).toBe(1);
    await log('Second wine');
    expect(await names(dashboard)).toEqual(['Second wine', 'First wine']);
    expect(pageReads - before).toBe(2);
  });
});
