// Statistics (issue 11): GET /api/stats and a year in review for a user with 20,000 entries,
// against a real server process. Its own database: entries spread over three years, 2,000
// makers, a fifth in the cellar, and 99 other users with 500 entries each around them.
// `BENCH_ONLY=stats npm run bench`, or `node bench/stats.ts` alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../src/auth/passwords.ts';
import { subtypesOf } from '../src/beverages/catalog.ts';
import { openDatabase } from '../src/db/client.ts';
import type { BeverageType } from '../src/db/schema/index.ts';
import { multipart, percentile, signIn, time } from './http.ts';
import { startVault } from './processes.ts';
import { ENTRIES, NAMES, PASSWORD, rng } from './seed.ts';
import { printVerdicts, type Verdict } from './verdict.ts';

const OTHER_USERS = 99;
const OTHERS_ENTRIES = 500;
const MAKERS = 2000;
const YEARS = 3;
const TYPES: BeverageType[] = ['WHISKEY', 'WINE', 'BEER'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

export async function seedStats(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-stats-'));
  const { database, sqlite, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(PASSWORD);
  const addUser = database
    .prepare(
      `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, 'USER', ?)
       returning id`,
    )
    .pluck<number>();
  const addEntry = database.prepare(
    `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?)`,
  );
  const span = YEARS * 365 * 24 * 3600_000;
  const now = Date.now();
  await database.transaction(async () => {
    for (let u = 0; u <= OTHER_USERS; u++) {
      const userId = (await addUser.get(
        `stats_${u}`,
        `Stats ${u}`,
        `stats${u}@example.com`,
        passwordHash,
      ))!;
      const count = u === 0 ? ENTRIES : OTHERS_ENTRIES;
      for (let i = 0; i < count; i++) {
        const type = pick(TYPES);
        const status = rng() < 0.7 ? 'TRIED' : 'TO_TRY';
        const at = Math.floor(now - rng() * span);
        await addEntry.run(
          userId,
          type,
          `${pick(NAMES)} ${i}`,
          pick(subtypesOf(type)),
          rng() < 0.1 ? '' : `Maker ${Math.floor(rng() ** 2 * MAKERS)}`,
          status === 'TRIED' ? Math.floor(rng() * 6) : 0,
          status,
          rng() < 0.2 ? 1 : 0,
          at,
          at,
        );
      }
    }
  });
  sqlite.pragma('optimize');
  close();
  return dataDir;
}

export async function benchStats(): Promise<Verdict[]> {
  console.log(
    `\nStatistics: seeding ${ENTRIES} entries for one user over ${YEARS} years (${MAKERS} makers)...`,
  );
  const dataDir = await seedStats();
  try {
    const vault = await startVault(dataDir);
    try {
      const client = await signIn(vault.origin, 'stats_0', PASSWORD);
      const get = async (pathAndQuery: string) => {
        const res = await client.send('GET', pathAndQuery);
        if (res.status !== 200) throw new Error(`GET ${pathAndQuery}: ${res.status}`);
        return res.body;
      };
      const load = os.loadavg()[0]!.toFixed(1);
      console.log(`load average ${load} on ${os.availableParallelism()} cores`);
      const total = JSON.parse((await get('/api/stats')).toString()).all.total as number;
      if (total !== ENTRIES) throw new Error(`expected ${ENTRIES} entries, stats say ${total}`);
      const lastYear = new Date().getUTCFullYear() - 1;
      // Any write empties the statistics' memo (src/stats/repository.ts): a rating changed
      // before each request makes every one of them compute its figures afresh.
      const id = JSON.parse((await get('/api/beverages?type=WINE&status=TRIED&limit=1')).toString())
        .beverages[0].id as number;
      const write = async (i: number) => {
        const res = await client.send(
          'PATCH',
          `/api/beverages/${id}`,
          multipart({ rating: String(1 + (i % 5)) }),
        );
        if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${res.body.toString()}`);
      };
      const afresh = async (label: string, path: string) => {
        const samples: number[] = [];
        for (let i = 0; i < 220; i++) {
          await write(i);
          // The write's own background work (its activity in the outbox) is left to finish
          // first: what is measured is the statistics, not the write.
          await new Promise((resolve) => setTimeout(resolve, 25));
          const t = performance.now();
          await get(path);
          if (i >= 20) samples.push(performance.now() - t); // after a warm-up
        }
        samples.sort((a, b) => a - b);
        const r = { min: samples[0]!, p50: percentile(samples, 50), p99: percentile(samples, 99) };
        console.log(
          `${label.padEnd(58)} n=${String(samples.length).padStart(5)}  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  (fastest ${r.min.toFixed(2)} ms)`,
        );
        return r;
      };
      const overview = await afresh(
        'GET /api/stats after a write (computed afresh)',
        '/api/stats?tz=Europe/Paris',
      );
      const review = await afresh(
        `GET /api/stats/years/${lastYear} after a write`,
        `/api/stats/years/${lastYear}?tz=Europe/Paris`,
      );
      const again = await time('GET /api/stats again, nothing written since', 300, () =>
        get('/api/stats?tz=Europe/Paris'),
      );
      return [
        {
          target: 'GET /api/stats < 50 ms (20,000 entries)',
          figure: `p50 ${overview.p50.toFixed(1)} ms, p99 ${overview.p99.toFixed(1)} ms`,
          met: overview.p99 < 50,
        },
        {
          target: 'year in review < 50 ms',
          figure: `p50 ${review.p50.toFixed(1)} ms, p99 ${review.p99.toFixed(1)} ms`,
          met: review.p99 < 50,
        },
        {
          target: 'GET /api/stats again (memoized) < 50 ms',
          figure: `p50 ${again.p50.toFixed(1)} ms, p99 ${again.p99.toFixed(1)} ms`,
          met: again.p99 < 50,
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
  printVerdicts('Targets of issue 11 (statistics):', await benchStats());
}
