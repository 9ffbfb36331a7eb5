// Benchmark of the vault's entry API (issue 3), against a real server process on loopback.
//  1. Seeds a temporary SQLite file: 100 users, one of them with 20,000 entries.
//  2. Starts the vault (`node src/main.ts`) on a free port with that data directory.
//  3. Measures over HTTP with keep-alive, one request at a time: GET /api/beverages for one
//     type and status, searches, POST without a photo, POST with a 12-megapixel JPEG.
//  4. Reads the server's resident memory from /proc while the photos are processed.
// Run: npm run bench
import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { hashPassword } from '../src/auth/passwords.ts';
import { subtypesOf } from '../src/beverages/catalog.ts';
import { openDatabase } from '../src/db/client.ts';
import type { BeverageType } from '../src/db/schema/index.ts';

const ENTRIES = 20_000;
const USERS = 100;
const PASSWORD = 'bench-password';
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

let seed = 42;
const rng = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

// ---- 1. seed -------------------------------------------------------------------------------
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-'));
{
  console.log(`Seeding ${USERS} users and ${ENTRIES} entries for one of them...`);
  const { sqlite, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(PASSWORD);
  const addUser = sqlite.prepare(
    `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, ?, ?)`,
  );
  const addEntry = sqlite.prepare(
    `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let u = 0; u < USERS; u++) {
      const userId = Number(
        addUser.run(
          `bench_${u}`,
          `Bench ${u}`,
          `bench${u}@example.com`,
          u === 0 ? 'ADMIN' : 'USER',
          passwordHash,
        ).lastInsertRowid,
      );
      const count = u === 0 ? ENTRIES : 50;
      const t0 = Date.now() - count * 60_000;
      for (let i = 0; i < count; i++) {
        const type = pick(TYPES);
        const status = rng() < 0.7 ? 'TRIED' : 'TO_TRY';
        const notes = Array.from({ length: 8 }, () => pick(WORDS)).join(' ');
        const rating = status === 'TRIED' ? 1 + Math.floor(rng() * 5) : 0;
        const at = t0 + i * 60_000;
        addEntry.run(
          userId,
          type,
          `${pick(NAMES)} ${pick(NAMES)} ${i}`,
          pick(subtypesOf(type)),
          `${pick(NAMES)} House`,
          rating,
          notes,
          status,
          rng() < 0.2 ? 1 : 0,
          at,
          at,
        );
      }
    }
  })();
  sqlite.pragma('optimize');
  close();
}

// ---- 2. start the server ------------------------------------------------------------------
const port = await new Promise<number>((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address() as net.AddressInfo;
    srv.close(() => resolve(port));
  });
});
const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['src/main.ts'], {
  cwd: path.resolve(import.meta.dirname, '..'),
  // As `npm start` and the container run it (MALLOC_ARENA_MAX: see docs/configuration.md).
  env: {
    ...process.env,
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    PORT: String(port),
    HOST: '127.0.0.1',
    VAULT_ORIGIN: origin,
    VAULT_DATA_DIR: dataDir,
    VAULT_LOG_LEVEL: 'warning',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stopServer = () => server.kill('SIGTERM');
process.on('exit', stopServer);
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${origin}/api/auth/me`)).status === 401) break;
  } catch {
    if (i > 100) throw new Error('the server did not start');
  }
  await new Promise((r) => setTimeout(r, 100));
}

const login = await fetch(`${origin}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin },
  body: JSON.stringify({ username: 'bench_0', password: PASSWORD }),
});
const cookie = login.headers
  .getSetCookie()
  .find((c) => c.startsWith('vault_session='))!
  .split(';')[0]!;
const headers = { cookie, origin };

// The load generator uses node:http with keep-alive and bodies encoded once, so that the
// figures are the server's, not the client's (fetch and FormData cost more than the server).
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
function send(method: string, pathAndQuery: string, body?: { type: string; data: Buffer }) {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = http.request(
      `${origin}${pathAndQuery}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(body && { 'content-type': body.type, 'content-length': body.data.length }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body?.data);
  });
}

/** A multipart/form-data body, encoded once. */
function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const boundary = '----vault-bench-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="bottle.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

// ---- 3. measure ------------------------------------------------------------------------------
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
  const r = {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    perSecond: (n / total) * 1000,
  };
  console.log(
    `${label.padEnd(58)} n=${String(n).padStart(5)}  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  ${r.perSecond.toFixed(0).padStart(6)}/s`,
  );
  return r;
}

async function get(query: string) {
  const res = await send('GET', `/api/beverages${query}`);
  if (res.status !== 200) throw new Error(`GET ${query}: ${res.status}`);
  return JSON.parse(res.body.toString()) as { beverages: unknown[]; nextCursor: string | null };
}

const firstPage = await get('?type=WHISKEY&status=TRIED');
console.log(
  `one type and status: a page of ${firstPage.beverages.length} (of about ${Math.round((ENTRIES * 0.7) / 3)})`,
);

const list = await time('GET ?type=WHISKEY&status=TRIED (first page of 100)', 500, () =>
  get('?type=WHISKEY&status=TRIED'),
);
let cursor = firstPage.nextCursor;
for (let i = 0; i < 19 && cursor; i++)
  cursor = (await get(`?type=WHISKEY&status=TRIED&cursor=${cursor}`)).nextCursor;
const deepPage = await time('GET ?type=WHISKEY&status=TRIED&cursor (21st page)', 300, () =>
  get(`?type=WHISKEY&status=TRIED&cursor=${cursor}`),
);
const dash = await time('GET ?type=WINE&status=TO_TRY&limit=4 (a dashboard list)', 500, () =>
  get('?type=WINE&status=TO_TRY&limit=4'),
);
const search = await time('GET ?q=<name and number> (few matches)', 500, (i) =>
  get(`?q=${encodeURIComponent(`${NAMES[i % NAMES.length]} ${i % 1000}`)}`),
);
const searchWide = await time('GET ?q=smoke%20peat (thousands match)', 300, () =>
  get('?q=smoke%20peat'),
);
const searchShort = await time('GET ?q=ok (two letters: LIKE fallback)', 300, () => get('?q=ok'));

const ENTRY_FIELDS = {
  name: 'Bench pour',
  type: 'BEER',
  subtype: 'IPA',
  rating: '4',
  status: 'TRIED',
  inCellar: 'false',
  notes: 'hazy, juicy',
};
const plainEntry = multipart(ENTRY_FIELDS);
async function post(body: { type: string; data: Buffer }) {
  const res = await send('POST', '/api/beverages', body);
  if (res.status !== 201) throw new Error(`POST: ${res.status} ${res.body.toString()}`);
}
await time('POST /api/beverages (no photo), one at a time', 1000, () => post(plainEntry));

/** Throughput with several clients at once, as a server sees real traffic. */
async function throughput(
  label: string,
  total: number,
  clients: number,
  fn: (i: number) => Promise<unknown>,
) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) await fn(next++);
    }),
  );
  const perSecond = (total / (performance.now() - start)) * 1000;
  console.log(
    `${label.padEnd(58)} n=${String(total).padStart(5)}  ${perSecond.toFixed(0).padStart(6)}/s`,
  );
  return { perSecond };
}
const create = await throughput('POST /api/beverages (no photo), 8 clients at once', 5000, 8, () =>
  post(plainEntry),
);

// A 12-megapixel JPEG (4000 × 3000) with camera-like noise, so it compresses like a photo.
const width = 4000;
const height = 3000;
const raw = Buffer.alloc(width * height * 3);
for (let i = 0; i < raw.length; i++) raw[i] = (i % 251) ^ Math.floor(rng() * 64);
const photo = await sharp(raw, { raw: { width, height, channels: 3 } })
  .jpeg({ quality: 90 })
  .toBuffer();
console.log(`12 MP JPEG: ${(photo.length / 1024 / 1024).toFixed(1)} MB`);

// ---- 4. memory -------------------------------------------------------------------------------
const rss = () => {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
};
const photoEntry = multipart(ENTRY_FIELDS, { name: 'photo', data: photo });
await post(photoEntry); // the first photo loads sharp's code: not growth
const rssBefore = rss();
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 5);
const withPhoto = await time('POST /api/beverages (12 MP JPEG photo)', 40, () => post(photoEntry));
clearInterval(sampler);
const rssAfter = rss();
console.log(
  `server resident memory: ${rssBefore.toFixed(0)} MB before the photos, peak ${rssPeak.toFixed(0)} MB (+${(rssPeak - rssBefore).toFixed(0)} MB), ${rssAfter.toFixed(0)} MB after`,
);

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const worst = (...xs: number[]) => Math.max(...xs).toFixed(2);
console.log('\nTargets (issue 3):');
console.log(
  `  list p99 < 20 ms:               ${worst(list.p99, deepPage.p99, dash.p99)} ms worst — ${verdict(Math.max(list.p99, deepPage.p99, dash.p99) < 20)}`,
);
console.log(
  `  search p99 < 20 ms:             ${worst(search.p99, searchWide.p99, searchShort.p99)} ms worst — ${verdict(Math.max(search.p99, searchWide.p99, searchShort.p99) < 20)}`,
);
console.log(
  `  create without photo > 1000/s:  ${create.perSecond.toFixed(0)}/s — ${verdict(create.perSecond > 1000)}`,
);
console.log(
  `  photo median < 400 ms:          ${withPhoto.p50.toFixed(0)} ms — ${verdict(withPhoto.p50 < 400)}`,
);
console.log(
  `  RSS growth < 150 MB:            +${(rssPeak - rssBefore).toFixed(0)} MB at peak — ${verdict(rssPeak - rssBefore < 150)}`,
);

stopServer();
await new Promise((r) => server.once('exit', r));
fs.rmSync(dataDir, { recursive: true, force: true });
