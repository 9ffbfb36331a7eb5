// The cellar (issue 21): the cellar screen's answers for a user with 5,000 bottles in 200 places,
// against a real server process. Its own database: 200 places three deep, 1,200 entries with
// bottle lines (several lines each, windows from 2010 to 2040, prices in EUR and USD), 200 more
// 'In cellar' without bottle lines, and 3,000 entries outside the cellar.
// Each read is measured twice: under load (32 connections, the answers memoized between writes),
// as p50/p99 and as a ratio to a bare Hono route measured in the same run; and one at a time
// after a write (computed afresh).
// `BENCH_ONLY=cellar npm run bench`, or `node bench/cellar.ts` alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../src/auth/passwords.ts';
import { subtypesOf } from '../src/beverages/catalog.ts';
import { openDatabase } from '../src/db/client.ts';
import type { BeverageType } from '../src/db/schema/index.ts';
import { multipart, percentile, signIn } from './http.ts';
import { line, measure } from './pipeline.ts';
import { startBareHono, startVault } from './processes.ts';
import { NAMES, PASSWORD, rng } from './seed.ts';
import { printVerdicts, type Verdict } from './verdict.ts';

const BOTTLES = 5_000;
const PLACES = 200;
const CELLAR_ENTRIES = 1_200;
const LINELESS = 200;
const OTHER_ENTRIES = 3_000;
const TYPES: BeverageType[] = ['WHISKEY', 'WINE', 'BEER'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** How many entries of each kind the cellar's database holds (the defaults: this file's). */
export interface CellarSeed {
  lineless: number;
  otherEntries: number;
}

export async function seedCellar(
  { lineless, otherEntries }: CellarSeed = { lineless: LINELESS, otherEntries: OTHER_ENTRIES },
): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-cellar-'));
  const { database, sqlite, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(PASSWORD);
  const now = Date.now();
  const addUser = database
    .prepare(
      `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, 'USER', ?)
       returning id`,
    )
    .pluck<number>();
  const addEntry = database
    .prepare(
      `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status,
       in_cellar, created_at, updated_at, drink_from, drink_until)
     values (?, ?, ?, ?, '', 3, '', 'TRIED', ?, ?, ?, ?, ?)
     returning id`,
    )
    .pluck<number>();
  const addPlace = database
    .prepare(
      'insert into places (user_id, name, parent_id, created_at) values (?, ?, ?, ?) returning id',
    )
    .pluck<number>();
  const addBottle = database.prepare(
    `insert into bottles (beverage_id, user_id, quantity, size_ml, vintage, place_id,
       purchased_on, price_minor, currency, note, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, NULL, ?, ?, '', ?, ?)`,
  );
  const addEvent = database.prepare(
    `insert into bottle_events (user_id, beverage_id, kind, change, at) values (?, ?, 'ADDED', ?, ?)`,
  );
  await database.transaction(async () => {
    const userId = (await addUser.get(
      'cellar_0',
      'Cellar Keeper',
      'cellar0@example.com',
      passwordHash,
    ))!;
    // 10 rooms, 4 racks in each, and bins in the racks: 200 places.
    const places: number[] = [];
    const racks: number[] = [];
    for (let r = 0; r < 10; r++) {
      const room = (await addPlace.get(userId, `Room ${r}`, null, now))!;
      places.push(room);
      for (let k = 0; k < 4; k++) {
        const rack = (await addPlace.get(userId, `Rack ${k}`, room, now))!;
        places.push(rack);
        racks.push(rack);
      }
    }
    for (let b = 0; places.length < PLACES; b++) {
      places.push((await addPlace.get(userId, `Bin ${b}`, racks[b % racks.length]!, now))!);
    }
    const entry = async (inCellar: boolean, i: number) => {
      const type = pick(TYPES);
      const at = Math.floor(now - rng() * 3 * 365 * 24 * 3600_000);
      const from = rng() < 0.7 ? 2010 + Math.floor(rng() * 25) : null;
      const until = from !== null && rng() < 0.8 ? from + Math.floor(rng() * 10) : null;
      const name = `${pick(NAMES)} ${i}`;
      return (await addEntry.get(
        userId,
        type,
        name,
        pick(subtypesOf(type)),
        inCellar ? 1 : 0,
        at,
        at,
        from,
        until,
      ))!;
    };
    const cellar: number[] = [];
    for (let i = 0; i < CELLAR_ENTRIES; i++) cellar.push(await entry(true, i));
    for (let i = 0; i < lineless; i++) await entry(true, CELLAR_ENTRIES + i);
    for (let i = 0; i < otherEntries; i++) await entry(false, CELLAR_ENTRIES + lineless + i);
    let left = BOTTLES;
    // Every entry with bottle lines has at least one; the rest go to entries at random.
    for (let line = 0; left > 0; line++) {
      const quantity = Math.min(left, 1 + Math.floor(rng() * 5));
      left -= quantity;
      const beverageId = line < cellar.length ? cellar[line]! : pick(cellar);
      const priced = rng() < 0.8;
      const at = Math.floor(now - rng() * 365 * 24 * 3600_000);
      await addBottle.run(
        beverageId,
        userId,
        quantity,
        pick([375, 750, 750, 750, 1500]),
        rng() < 0.6 ? 1990 + Math.floor(rng() * 35) : null,
        rng() < 0.95 ? pick(places) : null,
        priced ? 500 + Math.floor(rng() * 20_000) : null,
        priced ? (rng() < 0.7 ? 'EUR' : 'USD') : null,
        at,
        at,
      );
      await addEvent.run(userId, beverageId, quantity, at);
    }
  });
  sqlite.pragma('optimize');
  close();
  return dataDir;
}

export async function benchCellar(): Promise<Verdict[]> {
  console.log(
    `\nThe cellar: seeding ${BOTTLES} bottles in ${PLACES} places (${CELLAR_ENTRIES} entries with bottle lines)...`,
  );
  const dataDir = await seedCellar();
  const vault = await startVault(dataDir);
  const bare = await startBareHono();
  try {
    const client = await signIn(vault.origin, 'cellar_0', PASSWORD);
    const load = os.loadavg()[0]!.toFixed(1);
    console.log(`load average ${load} on ${os.availableParallelism()} cores`);
    const summary = await client.send('GET', '/api/cellar');
    const bottles = JSON.parse(summary.body.toString()).bottles as number;
    if (bottles !== BOTTLES + LINELESS) {
      throw new Error(`expected ${BOTTLES + LINELESS} bottles, GET /api/cellar says ${bottles}`);
    }
    const reads: [string, string][] = [
      ['GET /api/cellar', '/api/cellar'],
      ['GET /api/cellar/bottles (first page, 100 lines)', '/api/cellar/bottles?limit=100'],
    ];
    const places = await client.send('GET', '/api/cellar/places');
    if (places.status === 200) reads.splice(1, 0, ['GET /api/cellar/places', '/api/cellar/places']);
    else console.log(`GET /api/cellar/places answers ${places.status}: not served here, skipped`);

    console.log('\nUnder load, 32 connections (answers memoized between writes):');
    const headers = { cookie: client.cookie, 'accept-encoding': 'gzip, deflate, br, zstd' };
    const underLoad: Record<string, { p50: number; p99: number; ratio: number }> = {};
    let unexpected = 0;
    for (const [label, url] of reads) {
      const bareNow = await measure(`${bare.origin}/hello`, {}, 200);
      const result = await measure(`${vault.origin}${url}`, headers, 200);
      unexpected += result.unexpected;
      line(`${label} (bare Hono: ${bareNow.perSecond.toFixed(0)}/s)`, result, bareNow.perSecond);
      underLoad[label] = { ...result, ratio: result.perSecond / bareNow.perSecond };
    }

    // Any write empties the memo: a rating changed before each request makes each answer afresh.
    const id = JSON.parse(
      (await client.send('GET', '/api/beverages?cellar=true&limit=1')).body.toString(),
    ).beverages[0].id as number;
    console.log('\nOne at a time, each after a write (computed afresh):');
    const afresh: Record<string, { p50: number; p99: number }> = {};
    for (const [label, url] of reads) {
      const samples: number[] = [];
      for (let i = 0; i < 220; i++) {
        const res = await client.send(
          'PATCH',
          `/api/beverages/${id}`,
          multipart({ rating: String(1 + (i % 5)) }),
        );
        if (res.status !== 200) throw new Error(`PATCH: ${res.status}`);
        await new Promise((resolve) => setTimeout(resolve, 25)); // the write's background work
        const t = performance.now();
        const answer = await client.send('GET', url);
        if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
        if (i >= 20) samples.push(performance.now() - t);
      }
      samples.sort((a, b) => a - b);
      afresh[label] = { p50: percentile(samples, 50), p99: percentile(samples, 99) };
      console.log(
        `${label.padEnd(58)} n=${String(samples.length).padStart(5)}  p50 ${afresh[label].p50.toFixed(2).padStart(7)} ms  p99 ${afresh[label].p99.toFixed(2).padStart(7)} ms`,
      );
    }
    // What the device copy fetches so that every bottle is there offline: every page, in turn.
    console.log('\nThe whole cellar, as the app keeps it on the device (pages of 500, in turn):');
    const wholeRuns: number[] = [];
    let wholeBytes = 0;
    let wholeLines = 0;
    for (let run = 0; run < 12; run++) {
      const t = performance.now();
      let cursor: string | null = null;
      let bytes = 0;
      let lines = 0;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const page = await client.send('GET', `/api/cellar/bottles?limit=500${query}`);
        if (page.status !== 200) throw new Error(`GET /api/cellar/bottles: ${page.status}`);
        bytes += page.body.length;
        const parsed = JSON.parse(page.body.toString()) as {
          bottles: unknown[];
          nextCursor: string | null;
        };
        lines += parsed.bottles.length;
        cursor = parsed.nextCursor;
      } while (cursor);
      if (run >= 2) wholeRuns.push(performance.now() - t);
      wholeBytes = bytes;
      wholeLines = lines;
    }
    wholeRuns.sort((a, b) => a - b);
    const whole = { p50: percentile(wholeRuns, 50), p99: percentile(wholeRuns, 99) };
    console.log(
      `${wholeLines} lines, ${(wholeBytes / 1024).toFixed(0)} KB of JSON: p50 ${whole.p50.toFixed(1)} ms, slowest ${whole.p99.toFixed(1)} ms`,
    );
    return [
      {
        target: 'the whole cellar for the device copy (every page of 500)',
        figure: `${wholeLines} lines, ${(wholeBytes / 1024).toFixed(0)} KB, p50 ${whole.p50.toFixed(0)} ms`,
        met: true,
      },
      {
        target: 'every answer had the expected status',
        figure: unexpected === 0 ? 'yes' : `${unexpected} unexpected`,
        met: unexpected === 0,
      },
      ...reads.map(([label]) => ({
        target: `${label} afresh < 50 ms (5,000 bottles)`,
        figure: `p50 ${afresh[label]!.p50.toFixed(1)} ms, p99 ${afresh[label]!.p99.toFixed(1)} ms`,
        met: afresh[label]!.p99 < 50,
      })),
      ...reads.map(([label]) => ({
        target: `${label} under load, ratio to bare Hono`,
        figure: `${underLoad[label]!.ratio.toFixed(2)} (p99 ${underLoad[label]!.p99.toFixed(1)} ms)`,
        met: true,
      })),
    ];
  } finally {
    await bare.stop();
    await vault.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printVerdicts('Targets of issue 21 (cellar):', await benchCellar());
}
