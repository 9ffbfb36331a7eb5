// Export (issue 11): GET /api/export of a user with 20,000 entries, a tenth of them with a
// photo, from a real server process: the time to the first byte and to the last, the ZIP's
// size, and the server's resident memory before and during (sampled every 20 ms), which must
// stay flat: the ZIP is streamed, never built in memory.
// `BENCH_ONLY=export npm run bench`, or `node bench/export.ts` alone.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { hashPassword } from '../src/auth/passwords.ts';
import { subtypesOf } from '../src/beverages/catalog.ts';
import { openDatabase } from '../src/db/client.ts';
import type { BeverageType } from '../src/db/schema/index.ts';
import { signIn } from './http.ts';
import { startVault, type Running } from './processes.ts';
import { ENTRIES, NAMES, PASSWORD, rng } from './seed.ts';
import { printVerdicts, type Verdict } from './verdict.ts';

const PHOTO_EVERY = 10;
const SHARE_EVERY = 25;
/** Distinct photo files to copy from (about 250 KB each, as a downscaled phone photo). */
const PHOTO_VARIANTS = 8;
const TYPES: BeverageType[] = ['WHISKEY', 'WINE', 'BEER'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

async function photoVariants(): Promise<Buffer[]> {
  const { width, height } = { width: 900, height: 1200 };
  return Promise.all(
    Array.from({ length: PHOTO_VARIANTS }, (_, i) =>
      sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
        .blur(1.2 + i / 10)
        .jpeg({ quality: 82 })
        .toBuffer(),
    ),
  );
}

/** A data directory: export_0 with ENTRIES entries (photos and shares among them), export_1. */
export async function seedExport(): Promise<{ dataDir: string; photos: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-export-'));
  const uploads = path.join(dataDir, 'uploads');
  fs.mkdirSync(uploads, { recursive: true });
  const { database, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(PASSWORD);
  const variants = await photoVariants();
  const addUser = database
    .prepare(
      `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, 'USER', ?)
       returning id`,
    )
    .pluck<number>();
  const addEntry = database
    .prepare(
      `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, photo_path, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     returning id`,
    )
    .pluck<number>();
  const addShare = database.prepare(
    `insert into shares (beverage_id, recipient_id, shared_by_id, state, created_at) values (?, ?, ?, 'PENDING', ?)`,
  );
  let photos = 0;
  await database.transaction(async () => {
    const owner = (await addUser.get(
      'export_0',
      'Export Owner',
      'export0@example.com',
      passwordHash,
    ))!;
    const friend = (await addUser.get(
      'export_1',
      'Export Friend',
      'export1@example.com',
      passwordHash,
    ))!;
    const t0 = Date.now() - ENTRIES * 60_000;
    for (let i = 0; i < ENTRIES; i++) {
      const type = pick(TYPES);
      const status = rng() < 0.7 ? 'TRIED' : 'TO_TRY';
      let photoPath: string | null = null;
      if (i % PHOTO_EVERY === 0) {
        const name = `${randomBytes(16).toString('hex')}.jpg`;
        fs.writeFileSync(path.join(uploads, name), variants[photos % PHOTO_VARIANTS]!);
        photoPath = `media/${name}`;
        photos++;
      }
      const at = t0 + i * 60_000;
      const id = (await addEntry.get(
        owner,
        type,
        `${pick(NAMES)} ${i}`,
        pick(subtypesOf(type)),
        `Maker ${i % 700}`,
        status === 'TRIED' ? Math.floor(rng() * 6) : 0,
        i % 3 === 0 ? 'Notes with "quotes", commas, and a line\nbreak.' : '',
        status,
        rng() < 0.2 ? 1 : 0,
        photoPath,
        at,
        at,
      ))!;
      if (i % SHARE_EVERY === 0) await addShare.run(id, friend, owner, at);
    }
  });
  close();
  return { dataDir, photos };
}

interface Measured {
  status: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  /** Server RSS (MB) at each fifth of the download, and the peak. */
  rssAt: number[];
  peakRssMb: number;
}

/** Downloads the export, counting bytes (never holding them), sampling the server's RSS. */
function download(vault: Running, cookie: string, expectedBytes: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let peakRssMb = vault.rssMb();
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, vault.rssMb())), 20);
    const rssAt: number[] = [];
    let firstByteMs = 0;
    let bytes = 0;
    http
      .get(`${vault.origin}/api/export`, { headers: { cookie } }, (res) => {
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - t0;
          const before = bytes;
          bytes += chunk.length;
          const step = expectedBytes / 5;
          if (expectedBytes > 0 && Math.floor(bytes / step) > Math.floor(before / step)) {
            rssAt.push(vault.rssMb());
          }
        });
        res.on('end', () => {
          clearInterval(sampler);
          peakRssMb = Math.max(peakRssMb, vault.rssMb());
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            firstByteMs,
            totalMs: performance.now() - t0,
            rssAt,
            peakRssMb,
          });
        });
        res.on('error', reject);
      })
      .on('error', (error) => {
        clearInterval(sampler);
        reject(error);
      });
  });
}

export async function benchExport(): Promise<Verdict[]> {
  console.log(
    `\nExport: seeding ${ENTRIES} entries for one user, a photo on every ${PHOTO_EVERY}th...`,
  );
  const { dataDir, photos } = await seedExport();
  const photoBytes = fs
    .readdirSync(path.join(dataDir, 'uploads'))
    .filter((name) => name.endsWith('.jpg'))
    .reduce((sum, name) => sum + fs.statSync(path.join(dataDir, 'uploads', name)).size, 0);
  try {
    const vault = await startVault(dataDir);
    try {
      const { cookie } = await signIn(vault.origin, 'export_0', PASSWORD);
      const idleRssMb = vault.rssMb();
      // A first run warms the code paths; the second is the one reported.
      const warm = await download(vault, cookie, 0);
      if (warm.status !== 200) throw new Error(`GET /api/export: ${warm.status}`);
      const baseRssMb = vault.rssMb();
      const run = await download(vault, cookie, warm.bytes);
      const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
      console.log(
        `${photos} photos (${mb(photoBytes)} MB); ZIP ${mb(run.bytes)} MB; first byte ${run.firstByteMs.toFixed(0)} ms; all ${(run.totalMs / 1000).toFixed(2)} s (${mb(run.bytes / (run.totalMs / 1000))} MB/s)`,
      );
      console.log(
        `server RSS: idle ${idleRssMb.toFixed(0)} MB, after a first export ${baseRssMb.toFixed(0)} MB, ` +
          `at each fifth ${run.rssAt.map((r) => r.toFixed(0)).join(' / ')} MB, peak ${run.peakRssMb.toFixed(0)} MB`,
      );
      // Flat: what the server holds while sending the last fifth is what it held at the first.
      const spread = Math.max(...run.rssAt) - Math.min(...run.rssAt);
      return [
        {
          target: `export of ${ENTRIES.toLocaleString('en')} entries with photos`,
          figure: `${(run.totalMs / 1000).toFixed(1)} s for ${mb(run.bytes)} MB`,
          met: run.status === 200 && run.bytes > photoBytes,
        },
        {
          target: 'server memory flat while exporting (±16 MB)',
          figure: `${spread.toFixed(0)} MB apart, peak +${(run.peakRssMb - idleRssMb).toFixed(0)} MB on idle`,
          met: run.rssAt.length >= 4 && spread < 32,
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
  printVerdicts('Targets of issue 11 (export):', await benchExport());
}
