// Backups (issue 11): POST /api/backups on a real server process holding 20,000 entries, a tenth
// of them with a photo (the export benchmark's vault): how long the backup takes, its size, the
// server's memory, and how a signed-in page of entries answers while the backup is made (the
// database copy runs in a worker thread and the ZIP is streamed, so the server keeps answering).
// `node bench/backups.ts`.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { seedExport } from './export.ts';
import { percentile, signIn } from './http.ts';
import { startVault } from './processes.ts';
import { ENTRIES, PASSWORD } from './seed.ts';
import { printVerdicts, type Verdict } from './verdict.ts';

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

/** Times GET /api/beverages?limit=20, one after another, until `stop()`. */
async function probe(send: Awaited<ReturnType<typeof signIn>>['send'], stop: () => boolean) {
  const times: number[] = [];
  while (!stop()) {
    const t0 = performance.now();
    const res = await send('GET', '/api/beverages?limit=20');
    if (res.status !== 200) throw new Error(`GET /api/beverages: ${res.status}`);
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return times.sort((a, b) => a - b);
}

export async function benchBackups(): Promise<Verdict[]> {
  console.log(`\nBackups: seeding ${ENTRIES} entries, a photo on every 10th...`);
  const { dataDir, photos } = await seedExport();
  const db = new Database(path.join(dataDir, 'vault.sqlite'));
  db.prepare(`update users set role = 'ADMIN' where username = 'export_0'`).run();
  db.close();
  try {
    const vault = await startVault(dataDir);
    try {
      const client = await signIn(vault.origin, 'export_0', PASSWORD);
      const quiet = await (async () => {
        const started = performance.now();
        return probe(client.send, () => performance.now() - started > 2_000);
      })();
      const idleRssMb = vault.rssMb();
      let peakRssMb = idleRssMb;
      const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, vault.rssMb())), 20);
      let done = false;
      const during = probe(client.send, () => done);
      const t0 = performance.now();
      const res = await client.send('POST', '/api/backups');
      const backupMs = performance.now() - t0;
      done = true;
      clearInterval(sampler);
      const latencies = await during;
      if (res.status !== 201) throw new Error(`POST /api/backups: ${res.status} ${res.body}`);
      const { backup } = JSON.parse(res.body.toString()) as {
        backup: { name: string; sizeBytes: number };
      };
      console.log(
        `${photos} photos; backup ${backup.name}: ${mb(backup.sizeBytes)} MB in ${(backupMs / 1000).toFixed(2)} s`,
      );
      console.log(
        `GET /api/beverages?limit=20, quiet: p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${percentile(quiet, 99).toFixed(1)} ms; ` +
          `during the backup (${latencies.length} requests): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
      );
      console.log(
        `server RSS: idle ${idleRssMb.toFixed(0)} MB, peak while backing up ${peakRssMb.toFixed(0)} MB`,
      );
      return [
        {
          target: `backup of ${ENTRIES.toLocaleString('en')} entries with photos`,
          figure: `${(backupMs / 1000).toFixed(1)} s for ${mb(backup.sizeBytes)} MB`,
          met: backup.sizeBytes > 0,
        },
        {
          target: 'the server answers while a backup is made',
          figure: `p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms`,
          met: latencies.length > 0 && (latencies.at(-1) ?? 0) < 500,
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
  printVerdicts('Targets of issue 11 (backups):', await benchBackups());
}
