import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importReportSchema, type ImportReport } from '../../contract/imports.ts';
import { createApp } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { IMPORT_BATCH_ROWS } from '../../src/imports/runner.ts';
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
      const rows: number[] = [];
      let next: number | null = 0;
      let body: ImportReport | undefined;
      while (next !== null) {
        const report = await app.request(
          new URL(`/api/imports/${job.id}/report?offset=${next}`, first.origin).toString(),
          { headers: { cookie: again } },
        );
        body = importReportSchema.parse(await json(report));
        rows.push(...body.rows.map((r) => r.row));
        next = body.nextOffset;
      }
      expect(body!.job).toMatchObject({ status: 'DONE', imported: ROWS, duplicates: 0 });
      expect(rows).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      const stored = (await ctx.database.database
        .prepare<{
          n: number;
          names: number;
        }>('select count(*) as n, count(distinct name) as names from beverages')
        .get())!;
      expect(stored).toEqual({ n: ROWS, names: ROWS });
      // The uploaded file is gone once the job is done; the report stays.
      expect(fs.readdirSync(path.dirname(jobFile)).sort()).toEqual(['job.json', 'report.jsonl']);
    } finally {
      await ctx.close();
    }
  });
});

/**
 * What a crash in the middle of a batch leaves: the batch's report lines are written, then its
 * entries (one transaction), then job.json. A crash after the report lines leaves job.json one
 * batch behind them, with the batch's entries in the vault (the transaction committed) or not.
 */
describe('An import resumed after a crash in the middle of a batch', () => {
  const SMALL = 600;

  async function crashedMidBatch(committed: boolean) {
    const vault = createTestVault();
    const user = await vault.createUser({ username: 'carol' });
    const cookie = await vault.login('carol', user.password);
    const lines = ['type,name,subtype,maker,status,rating'];
    for (let i = 1; i <= SMALL; i++) lines.push(`beer,Crash ${i},IPA,Brewery,tried,3`);
    const res = await vault.request('/api/imports', {
      method: 'POST',
      body: lines.join('\n') + '\n',
      headers: { 'content-type': 'text/csv' },
      cookie,
    });
    expect(res.status).toBe(202);
    const { job } = (await json(res)) as { job: { id: string } };
    await vault.ctx.close(); // stops after the batch under way
    const jobFile = path.join(vault.config.dataDir, 'imports', job.id, 'job.json');
    const state = JSON.parse(fs.readFileSync(jobFile, 'utf8')) as JobState;
    expect(state.processed).toBeGreaterThanOrEqual(IMPORT_BATCH_ROWS);
    expect(state.processed).toBeLessThan(SMALL);
    // The crash: job.json never heard of the last batch, whose report lines are written.
    const last = { from: state.processed - IMPORT_BATCH_ROWS + 1, to: state.processed };
    state.processed -= IMPORT_BATCH_ROWS;
    state.imported -= IMPORT_BATCH_ROWS;
    fs.writeFileSync(jobFile, JSON.stringify(state));
    const ctx = createContext(vault.config);
    if (!committed) {
      const drop = ctx.database.database.prepare('delete from beverages where name = ?');
      for (let i = last.from; i <= last.to; i++) await drop.run(`Crash ${i}`);
    }
    try {
      await ctx.imports.start();
      await ctx.imports.idle();
      const report = await ctx.imports.report({ id: user.id }, job.id);
      const stored = (await ctx.database.database
        .prepare<{
          n: number;
          names: number;
        }>('select count(*) as n, count(distinct name) as names from beverages')
        .get())!;
      return { report, stored };
    } finally {
      await ctx.close();
      fs.rmSync(vault.config.dataDir, { recursive: true, force: true });
    }
  }

  it('reports the rows its committed batch wrote as imported, not as duplicates of themselves', async () => {
    const { report, stored } = await crashedMidBatch(true);
    expect(report.job).toMatchObject({ status: 'DONE', imported: SMALL, duplicates: 0 });
    expect(report.rows.map((r) => r.row)).toEqual(Array.from({ length: SMALL }, (_, i) => i + 1));
    expect(report.rows.every((r) => r.outcome === 'IMPORTED')).toBe(true);
    expect(stored).toEqual({ n: SMALL, names: SMALL });
  });

  it('imports anew, once, the rows of a batch whose transaction never committed', async () => {
    const { report, stored } = await crashedMidBatch(false);
    expect(report.job).toMatchObject({ status: 'DONE', imported: SMALL, duplicates: 0 });
    expect(report.rows.map((r) => r.row)).toEqual(Array.from({ length: SMALL }, (_, i) => i + 1));
    expect(stored).toEqual({ n: SMALL, names: SMALL });
  });
});
