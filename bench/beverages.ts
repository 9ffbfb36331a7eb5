// Benchmark of the vault's entry API (issue 3). Seeds a user with 20,000 entries (100 users in
// all) on a temporary SQLite file and drives the real app in-process through app.request():
//   GET /api/beverages for one type and status, a search, POST without a photo, POST with a
//   12-megapixel JPEG. Prints p50/p99 latencies, throughput and resident memory growth.
// Run: npm run bench
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { subtypesOf } from '../src/beverages/catalog.ts';
import { createTestVault } from '../test/helpers/vault.ts';
import type { BeverageType } from '../src/db/schema/index.ts';

const ENTRIES = 20_000;
const USERS = 100;
const TYPES: BeverageType[] = ['WHISKEY', 'WINE', 'BEER'];
const WORDS = [
  'smoke',
  'peat',
  'vanilla',
  'oak',
  'cherry',
  'citrus',
  'honey',
  'spice',
  'leather',
  'toffee',
  'pine',
  'malt',
  'berry',
  'floral',
  'mineral',
  'cocoa',
];
const NAMES = [
  'Reserve',
  'Old',
  'Single Barrel',
  'Estate',
  'Cask',
  'Harvest',
  'Double',
  'Highland',
  'Valley',
  'Batch',
  'Vintage',
  'Select',
];

const rng = (() => {
  let s = 42;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
})();
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(label: string, n: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i); // warm-up
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  const total = performance.now() - start;
  samples.sort((a, b) => a - b);
  const result = {
    label,
    n,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    perSecond: (n / total) * 1000,
  };
  console.log(
    `${label.padEnd(48)} n=${String(n).padStart(5)}  p50 ${result.p50.toFixed(2).padStart(7)} ms  p99 ${result.p99.toFixed(2).padStart(7)} ms  ${result.perSecond.toFixed(0).padStart(6)}/s`,
  );
  return result;
}

const vault = createTestVault();
try {
  console.log(`Seeding ${USERS} users and ${ENTRIES} entries for one of them...`);
  const main = await vault.createUser({ username: 'bench_main' });
  const others = [];
  for (let i = 1; i < USERS; i++)
    others.push(await vault.createUser({ username: `bench_${i}`, password: 'bench-password' }));
  const insert = vault.ctx.database.sqlite.prepare(
    `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const seed = vault.ctx.database.sqlite.transaction((userId: number, count: number) => {
    const t0 = Date.now() - count * 60_000;
    for (let i = 0; i < count; i++) {
      const type = pick(TYPES);
      const status = rng() < 0.7 ? 'TRIED' : 'TO_TRY';
      const notes = Array.from({ length: 8 }, () => pick(WORDS)).join(' ');
      insert.run(
        userId,
        type,
        `${pick(NAMES)} ${pick(NAMES)} ${i}`,
        pick(subtypesOf(type)),
        `${pick(NAMES)} House`,
        status === 'TRIED' ? 1 + Math.floor(rng() * 5) : 0,
        notes,
        status,
        rng() < 0.2 ? 1 : 0,
        t0 + i * 60_000,
        t0 + i * 60_000,
      );
    }
  });
  seed(main.id, ENTRIES);
  for (const o of others) seed(o.id, 50);
  vault.ctx.database.sqlite.pragma('optimize');

  const cookie = await vault.login('bench_main', main.password);
  const get = async (query: string) => {
    const res = await vault.request(`/api/beverages${query}`, { cookie });
    if (res.status !== 200) throw new Error(`GET ${query}: ${res.status}`);
    return res.text();
  };
  const count = (query: string) =>
    get(query).then((t) => (JSON.parse(t) as { beverages: unknown[] }).beverages.length);
  console.log(
    `whiskey/tried returns ${await count('?type=WHISKEY&status=TRIED')} entries; 'smoke peat' finds ${await count('?q=smoke%20peat')}; 'reserve 12' finds ${await count('?q=reserve%2012')}`,
  );

  const list = await time('GET /beverages?type=WHISKEY&status=TRIED (page 100)', 300, () =>
    get('?type=WHISKEY&status=TRIED'),
  );
  await time('GET /beverages?type=WINE&status=TRIED&limit=4 (dashboard)', 300, () =>
    get('?type=WINE&status=TRIED&limit=4'),
  );
  const listTry = await time('GET /beverages?type=BEER&status=TO_TRY', 300, () =>
    get('?type=BEER&status=TO_TRY'),
  );
  const search = await time('GET /beverages?q=<name and number>', 300, (i) =>
    get(`?q=${encodeURIComponent(`${NAMES[i % NAMES.length]} ${i % 1000}`)}`),
  );
  const searchWide = await time('GET /beverages?q=smoke%20peat (thousands match)', 100, () =>
    get('?q=smoke%20peat'),
  );

  const form = (i: number, photo?: Uint8Array) => {
    const data = new FormData();
    data.append('name', `Bench pour ${i}`);
    data.append('type', 'BEER');
    data.append('subtype', 'IPA');
    data.append('rating', '4');
    data.append('status', 'TRIED');
    data.append('inCellar', 'false');
    data.append('notes', 'hazy, juicy');
    if (photo) data.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }));
    return data;
  };
  const post = async (i: number, photo?: Uint8Array) => {
    const res = await vault.request('/api/beverages', {
      method: 'POST',
      body: form(i, photo),
      cookie,
    });
    if (res.status !== 201) throw new Error(`POST: ${res.status} ${await res.text()}`);
  };
  const create = await time('POST /beverages (no photo)', 3000, (i) => post(i));

  // A 12-megapixel JPEG (4000 × 3000) with camera-like noise, so it compresses like a photo.
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i % 251) ^ Math.floor(rng() * 64);
  const photo = await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  console.log(`12 MP JPEG: ${(photo.length / 1024 / 1024).toFixed(1)} MB`);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
  const withPhoto = await time('POST /beverages (12 MP JPEG photo)', 30, (i) => post(i, photo));
  clearInterval(sampler);
  const growth = (rssPeak - rssBefore) / 1024 / 1024;
  console.log(
    `resident memory: ${(rssBefore / 1024 / 1024).toFixed(0)} MB before, peak ${(rssPeak / 1024 / 1024).toFixed(0)} MB, growth ${growth.toFixed(0)} MB`,
  );

  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  console.log('\nTargets:');
  console.log(
    `  list p99 < 20 ms: ${list.p99.toFixed(2)} / ${listTry.p99.toFixed(2)} ms — ${verdict(Math.max(list.p99, listTry.p99) < 20)}`,
  );
  console.log(
    `  search p99 < 20 ms: ${search.p99.toFixed(2)} / ${searchWide.p99.toFixed(2)} ms — ${verdict(Math.max(search.p99, searchWide.p99) < 20)}`,
  );
  console.log(
    `  create without photo > 1000/s: ${create.perSecond.toFixed(0)}/s — ${verdict(create.perSecond > 1000)}`,
  );
  console.log(
    `  photo median < 400 ms: ${withPhoto.p50.toFixed(0)} ms — ${verdict(withPhoto.p50 < 400)}`,
  );
  console.log(`  RSS growth < 150 MB: ${growth.toFixed(0)} MB — ${verdict(growth < 150)}`);
  fs.rmSync(vault.config.uploadsDir, { recursive: true, force: true });
} finally {
  await vault.close();
}
