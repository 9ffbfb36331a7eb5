import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import type { JobState } from '../../src/imports/store.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, sessionCookieFrom } from '../helpers/vault.ts';

const ROWS = 3000;

function bigCsv(): string {
  const lines = ['type,name,subtype,maker,status,rating'];
  for (let i = 1; i <= ROWS; i++)
    lines.push(`beer,Batch ${i},IPA,Brewery ${i % 17},tried,${i % 6}`);
  return lines.join('\n') + '\n';
}

const first = createTestVault();
afterAll(() => fs.rmSync(first.config.dataDir, { recursive: true, force: true }));

describe('An import interrupted by a stop', () => {
  it('goes on from where it stopped at the next start and imports every row exactly once', async () => {
    const user = await first.createUser({ username: 'alice' });
    const cookie = await first.login('alice', user.password);
    const res = await first.request('/api/imports', {
      method: 'POST',
      body: bigCsv(),
      headers: { 'content-type': 'text/csv' },
      cookie,
    });
    expect(res.status).toBe(202);
    const { job } = (await json(res)) as { job: { id: string } };
    await first.ctx.close(); // stops after the batch under way

    const jobFile = path.join(first.config.dataDir, 'imports', job.id, 'job.json');
    const stopped = JSON.parse(fs.readFileSync(jobFile, 'utf8')) as JobState;
    expect(stopped.status).toBe('RUNNING');
    expect(stopped.processed).toBeLessThan(ROWS);

    const ctx = createContext(first.config);
    try {
      await ctx.imports.start();
      await ctx.imports.idle();
      const app = createApp(ctx);
      const login = await app.request(new URL('/api/auth/login', first.origin).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: first.origin },
        body: JSON.stringify({ username: 'alice', password: user.password }),
      });
      const again = sessionCookieFrom(login);
      const report = await app.request(
        new URL(`/api/imports/${job.id}/report`, first.origin).toString(),
        { headers: { cookie: again } },
      );
      const body = (await json(report)) as {
        job: { status: string; imported: number; duplicates: number };
        rows: { row: number }[];
      };
      expect(body.job).toMatchObject({ status: 'DONE', imported: ROWS, duplicates: 0 });
      expect(body.rows.map((r) => r.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      const stored = ctx.database.sqlite
        .prepare('select count(*) as n, count(distinct name) as names from beverages')
        .get() as { n: number; names: number };
      expect(stored).toEqual({ n: ROWS, names: ROWS });
      // The uploaded file is gone once the job is done; the report stays.
      expect(fs.readdirSync(path.dirname(jobFile)).sort()).toEqual(['job.json', 'report.jsonl']);
    } finally {
      await ctx.close();
    }
  });
});
