import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMPORT_REPORT_PAGE_MAX,
  importJobResponseSchema,
  importReportSchema,
} from '../../contract/imports.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The report of an import, a page at a time (GET /api/imports/{id}/report, contract/imports.ts).
const ROWS = 2500;

let vault: TestVault;
let cookie: string;
let jobId: string;

beforeAll(async () => {
  vault = createTestVault();
  const user = await vault.createUser({ username: 'pager' });
  cookie = await vault.login('pager', user.password);
  // Every tenth row has no name: refused.
  const lines = ['type,name'];
  for (let i = 1; i <= ROWS; i++) lines.push(`beer,${i % 10 === 0 ? '' : `Page ${i}`}`);
  const res = await vault.request('/api/imports', {
    method: 'POST',
    body: lines.join('\n') + '\n',
    headers: { 'content-type': 'text/csv' },
    cookie,
  });
  expect(res.status).toBe(202);
  jobId = importJobResponseSchema.parse(await json(res)).job.id;
  await vault.ctx.imports.idle();
});
afterAll(() => vault.close());

async function page(query: string) {
  const res = await vault.request(`/api/imports/${jobId}/report${query}`, { cookie });
  expect(res.status).toBe(200);
  return importReportSchema.parse(await json(res));
}

describe('The report of an import', () => {
  it('lists every row a page at a time, at most 1,000 rows to a page when not told', async () => {
    const first = await page('');
    expect(first.job).toMatchObject({ status: 'DONE', imported: 2250, refused: 250 });
    expect(first.rows).toHaveLength(IMPORT_REPORT_PAGE_MAX);
    expect(first).toMatchObject({ total: ROWS, offset: 0, nextOffset: 1000 });
    expect(first.rows[0]).toMatchObject({ row: 1, name: 'Page 1', outcome: 'IMPORTED' });
    const rows = [...first.rows];
    let next = first.nextOffset;
    while (next !== null) {
      const more = await page(`?offset=${next}`);
      rows.push(...more.rows);
      next = more.nextOffset;
    }
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
  });

  it('lists only the rows not imported when asked, with how many there are', async () => {
    const first = await page('?outcome=NOT_IMPORTED&limit=100');
    expect(first).toMatchObject({ total: 250, offset: 0, nextOffset: 100 });
    expect(first.rows).toHaveLength(100);
    expect(first.rows.every((r) => r.outcome === 'REFUSED' && r.row % 10 === 0)).toBe(true);
    const last = await page('?outcome=NOT_IMPORTED&limit=100&offset=200');
    expect(last.rows.map((r) => r.row)).toEqual(
      Array.from({ length: 50 }, (_, i) => 2010 + i * 10),
    );
    expect(last.nextOffset).toBeNull();
    const past = await page('?outcome=NOT_IMPORTED&offset=5000');
    expect(past).toMatchObject({ rows: [], total: 250, nextOffset: null });
  });

  it('refuses a page it cannot read, saying why', async () => {
    const refusals: [string, RegExp][] = [
      ['?limit=0', /limit must be between 1 and 1000/],
      ['?limit=1001', /limit must be between 1 and 1000/],
      ['?offset=-1', /offset must be a whole number/],
      ['?offset=ten', /offset must be a whole number/],
      ['?outcome=SOME', /outcome must be one of ALL, NOT_IMPORTED/],
      ['?page=2', /./],
    ];
    for (const [query, message] of refusals) {
      const res = await vault.request(`/api/imports/${jobId}/report${query}`, { cookie });
      const body = (await json(res)) as { message: string };
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(body.message).toMatch(message);
    }
  });
});
