// Import (issue 11): a 10,000-row Untappd CSV uploaded to a real server process, the job
// polled until it is done: rows per second, the server's resident memory, and how fast the
// server answers other requests (GET /api/beverages) while the import runs, since the job
// works in batches and yields between them.
// `BENCH_ONLY=imports npm run bench`, or `node bench/imports.ts` alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../src/auth/passwords.ts';
import { openDatabase } from '../src/db/client.ts';
import { signIn } from './http.ts';
import { startVault } from './processes.ts';
import { NAMES, PASSWORD, rng } from './seed.ts';
import { printVerdicts, type Verdict } from './verdict.ts';

const ROWS = 10_000;
/** Every 20th check-in repeats an earlier beer (a duplicate, as in real Untappd histories). */
const REPEAT_EVERY = 20;
const STYLES = [
  'IPA - American',
  'Stout - Imperial / Double',
  'Lager - Helles',
  'Sour - Gose',
  'Belgian Tripel',
  'Cider - Dry',
];

const HEADER =
  'beer_name,brewery_name,beer_type,beer_abv,beer_ibu,comment,venue_name,venue_city,venue_state,venue_country,venue_lat,venue_lng,rating_score,created_at,checkin_url,beer_url,brewery_url,brewery_country,brewery_city,brewery_state,flavor_profiles,purchase_venue,serving_type,checkin_id,bid,brewery_id,photo_url,global_rating_score,global_weighted_rating_score,tagged_friends,total_toasts,total_comments';

function untappdCsv(): { csv: Buffer; unique: number } {
  const lines = [HEADER];
  let unique = 0;
  const t0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < ROWS; i++) {
    const n = i % REPEAT_EVERY === REPEAT_EVERY - 1 ? i - 1 : i;
    if (n === i) unique++;
    const name = `${NAMES[n % NAMES.length]} ${n}`;
    const style = STYLES[n % STYLES.length];
    const at = new Date(t0 + i * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
    const rating = (Math.floor(rng() * 21) / 4).toFixed(2);
    lines.push(
      `${name},Brewery ${n % 400},${style},5.5,40,"Nice, ${i}",Bar ${i % 50},Town,,Country,,,${rating},${at},https://untappd.com/c/${i},,,,,,,,Draft,${i},${n},${n % 400},,3.8,3.8,,0,0`,
    );
  }
  return { csv: Buffer.from(lines.join('\n') + '\n'), unique };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export async function benchImports(): Promise<Verdict[]> {
  console.log(`\nImport: a ${ROWS.toLocaleString('en')}-row Untappd CSV...`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-import-'));
  const { database, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  await database
    .prepare(
      `insert into users (username, full_name, email, role, password_hash) values ('import_0', 'Importer', 'import0@example.com', 'USER', ?)`,
    )
    .run(await hashPassword(PASSWORD));
  close();
  const { csv, unique } = untappdCsv();
  try {
    const vault = await startVault(dataDir);
    try {
      const client = await signIn(vault.origin, 'import_0', PASSWORD);
      const idleRssMb = vault.rssMb();
      let peakRssMb = idleRssMb;
      const t0 = performance.now();
      const posted = await client.send('POST', '/api/imports?fileName=untappd.csv', {
        type: 'text/csv',
        data: csv,
      });
      if (posted.status !== 202)
        throw new Error(`POST /api/imports: ${posted.status} ${posted.body}`);
      const acceptedMs = performance.now() - t0;
      const { job } = JSON.parse(posted.body.toString()) as { job: { id: string } };
      const latencies: number[] = [];
      let state: { status: string; imported: number; duplicates: number; processed: number };
      for (;;) {
        const s = performance.now();
        const list = await client.send('GET', '/api/beverages?limit=20');
        latencies.push(performance.now() - s);
        if (list.status !== 200) throw new Error(`GET /api/beverages: ${list.status}`);
        peakRssMb = Math.max(peakRssMb, vault.rssMb());
        const res = await client.send('GET', `/api/imports/${job.id}`);
        state = (JSON.parse(res.body.toString()) as { job: typeof state }).job;
        if (state.status === 'DONE' || state.status === 'FAILED') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const totalMs = performance.now() - t0;
      const rate = ROWS / (totalMs / 1000);
      console.log(
        `${(csv.length / 1024 / 1024).toFixed(1)} MB CSV: accepted (read through and checked) in ${acceptedMs.toFixed(0)} ms; ` +
          `done in ${(totalMs / 1000).toFixed(2)} s: ${rate.toFixed(0)} rows/s; ${state.imported} imported, ${state.duplicates} duplicates`,
      );
      console.log(
        `GET /api/beverages during the import (${latencies.length} requests): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
          `server RSS idle ${idleRssMb.toFixed(0)} MB, peak ${peakRssMb.toFixed(0)} MB`,
      );
      return [
        {
          target: `import of a ${ROWS.toLocaleString('en')}-row CSV`,
          figure: `${rate.toFixed(0)} rows/s (${(totalMs / 1000).toFixed(1)} s)`,
          met: state.status === 'DONE' && state.imported === unique,
        },
        {
          target: 'server answers during an import (p99 < 100 ms)',
          figure: `p99 ${percentile(latencies, 99).toFixed(0)} ms`,
          met: percentile(latencies, 99) < 100,
        },
      ];
    } finally {
      await vault.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printVerdicts('Targets of issue 11 (import):', await benchImports());
}
