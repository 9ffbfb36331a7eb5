// Seeding the benchmark's database: users with entries, written straight into SQLite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../src/auth/passwords.ts';
import { subtypesOf } from '../src/beverages/catalog.ts';
import { openDatabase } from '../src/db/client.ts';
import type { BeverageType } from '../src/db/schema/index.ts';

export const ENTRIES = 20_000;
export const USERS = 100;
export const PASSWORD = 'bench-password';
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
export const NAMES = [
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
export const rng = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/**
 * A temporary data directory with USERS users (bench_0 is an admin with ENTRIES entries, the
 * others 50 each), all with PASSWORD.
 */
export async function seedDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-'));
  const { database, sqlite, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(PASSWORD);
  const addUser = database
    .prepare(
      `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, ?, ?)
       returning id`,
    )
    .pluck<number>();
  const addEntry = database.prepare(
    `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  await database.transaction(async () => {
    for (let u = 0; u < USERS; u++) {
      const userId = (await addUser.get(
        `bench_${u}`,
        `Bench ${u}`,
        `bench${u}@example.com`,
        u === 0 ? 'ADMIN' : 'USER',
        passwordHash,
      ))!;
      const count = u === 0 ? ENTRIES : 50;
      const t0 = Date.now() - count * 60_000;
      for (let i = 0; i < count; i++) {
        const type = pick(TYPES);
        const status = rng() < 0.7 ? 'TRIED' : 'TO_TRY';
        const notes = Array.from({ length: 8 }, () => pick(WORDS)).join(' ');
        const rating = status === 'TRIED' ? 1 + Math.floor(rng() * 5) : 0;
        const at = t0 + i * 60_000;
        await addEntry.run(
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
  });
  sqlite.pragma('optimize');
  close();
  return dataDir;
}
