// `npm run bench`: the vault's benchmark, against real server processes on loopback.
//  1. Seeds a temporary SQLite file: 100 users, one of them (bench_0) with 20,000 entries.
//  2. Starts the vault three times on it: start-to-first-answer and idle resident memory.
//  3. The request pipeline at 32 connections, as ratios to a bare Hono route (issue 8).
//  4. The entry API one request at a time, logging with 8 clients, and photos (issue 3).
//  5. The social half on its own database: feed pages, notifications, fan-out (issue 9).
//  6. Federation: one entry to 1,000 remote followers on 50 fake hosts, inbox throughput, and a
//     cheer and a comment on an entry with those followers (issue 10).
//  Export (issue 11): a 20,000-entry vault with photos as a ZIP, time and server memory;
//  BENCH_ONLY=export runs it alone.
//  Import (issue 11): a 10,000-row CSV, rows per second and the server's answers meanwhile;
//  BENCH_ONLY=imports runs it alone.
//  Statistics (issue 11): GET /api/stats and a year in review for 20,000 entries, p50 and p99;
//  BENCH_ONLY=stats runs it alone.
//  Backups (issue 11): a backup of a 20,000-entry vault with photos through the API, time,
//  size, memory and a page of entries meanwhile; BENCH_ONLY=backups runs it alone.
//  Access tokens (issue 20): a signed-in read with a session cookie and with a bearer token, each
//  as a ratio to bare Hono; BENCH_ONLY=tokens runs it alone.
//  Offline sync (issue 21): 200 queued changes sent in order with their idempotency keys, then
//  again as if every answer had been lost; BENCH_ONLY=sync runs it alone.
//  The cellar (issue 21): GET /api/cellar, its places and its first page of bottles for 5,000
//  bottles in 200 places, p50/p99 under load (ratio to bare Hono) and afresh after a write;
//  BENCH_ONLY=cellar runs it alone.
//  The cellar by drinking window (issue 28): /cellar?by=window in Chromium for 20,000 entries
//  until its three groups are filled, and its requests; BENCH_ONLY=cellar-window runs it alone.
// BENCH_ONLY=start runs 2 alone (start time and idle memory, with their targets);
// BENCH_ONLY=heap prints where an idle server's memory goes, by module (bench/heap.ts).
// BENCH_ONLY=pipeline runs 1–3, BENCH_ONLY=social runs 5 alone, BENCH_ONLY=federation 6 alone.
// Figures vary by tens of percent on a busy machine: run it on a quiet one.
import fs from 'node:fs';
import { benchEntries } from './beverages.ts';
import { signIn } from './http.ts';
import { benchPipeline, measureStart, startVerdicts } from './pipeline.ts';
import { printIdleHeap } from './heap.ts';
import { benchSocial } from './social.ts';
import { benchFederation, runAlone } from './federation.ts';
import { benchExport } from './export.ts';
import { benchImports } from './imports.ts';
import { benchStats } from './stats.ts';
import { benchBackups } from './backups.ts';
import { benchTokens } from './tokens.ts';
import { benchOfflineSync } from './offline-sync.ts';
import { benchCellar } from './cellar.ts';
import { benchCellarWindow } from './cellar-window.ts';
import { startVault } from './processes.ts';
import { ENTRIES, PASSWORD, USERS, seedDataDir } from './seed.ts';
import { printVerdicts } from './verdict.ts';

if (process.env.BENCH_ONLY === 'federation') await runAlone();
if (process.env.BENCH_ONLY === 'export') {
  printVerdicts('Targets of issue 11 (export):', await benchExport());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'imports') {
  printVerdicts('Targets of issue 11 (import):', await benchImports());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'stats') {
  printVerdicts('Targets of issue 11 (statistics):', await benchStats());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'backups') {
  printVerdicts('Targets of issue 11 (backups):', await benchBackups());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'tokens') {
  printVerdicts('Targets of issue 20 (access tokens):', await benchTokens());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'sync') {
  printVerdicts('Targets of issue 21 (offline sync):', await benchOfflineSync());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'cellar') {
  printVerdicts('Targets of issue 21 (cellar):', await benchCellar());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'cellar-window') {
  printVerdicts('Targets of issue 28 (cellar by window):', await benchCellarWindow());
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'start' || process.env.BENCH_ONLY === 'heap') {
  console.log(`Seeding ${USERS} users and ${ENTRIES} entries for one of them...`);
  const dataDir = await seedDataDir();
  try {
    if (process.env.BENCH_ONLY === 'heap') await printIdleHeap(dataDir);
    else printVerdicts('Targets of issue 8 (start):', startVerdicts(await measureStart(dataDir)));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'social') {
  printVerdicts('Targets of issue 9 (social):', await benchSocial());
  process.exit(0);
}

console.log(`Seeding ${USERS} users and ${ENTRIES} entries for one of them...`);
const dataDir = await seedDataDir();
try {
  const start = await measureStart(dataDir);
  const vault = await startVault(dataDir);
  try {
    const client = await signIn(vault.origin, 'bench_0', PASSWORD);
    console.log('\nThe request pipeline, 32 connections:');
    const pipeline = await benchPipeline(vault, client, start);
    // BENCH_ONLY=pipeline skips the entry API (which adds thousands of entries and photos).
    const entries = process.env.BENCH_ONLY === 'pipeline' ? [] : await benchEntries(vault, client);
    printVerdicts('Targets of issue 8 (request pipeline):', pipeline);
    if (entries.length > 0) printVerdicts('Targets of issue 3 (entries):', entries);
  } finally {
    await vault.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.BENCH_ONLY !== 'pipeline') {
  printVerdicts('Targets of issue 9 (social):', await benchSocial());
  printVerdicts('Targets of issue 10 (federation):', await benchFederation());
  printVerdicts('Targets of issue 11 (export):', await benchExport());
  printVerdicts('Targets of issue 11 (import):', await benchImports());
  printVerdicts('Targets of issue 11 (statistics):', await benchStats());
  printVerdicts('Targets of issue 11 (backups):', await benchBackups());
  printVerdicts('Targets of issue 20 (access tokens):', await benchTokens());
  printVerdicts('Targets of issue 21 (offline sync):', await benchOfflineSync());
  printVerdicts('Targets of issue 21 (cellar):', await benchCellar());
  printVerdicts('Targets of issue 28 (cellar by window):', await benchCellarWindow());
}
