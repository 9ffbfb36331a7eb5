// The sync of 200 changes queued offline, as the installed app sends them when the connection
// returns: one at a time, in order, each with its Idempotency-Key. The 200 are a cellar keeper's
// afternoon in the basement: 50 entries logged (10 with a photo), 50 bottle lines added, 50
// bottles opened with a tasting, 50 tastings on their own. Then the same 200 again, as a client
// that lost every answer would send them: each must be answered from its key, nothing applied
// twice. BENCH_ONLY=sync runs it alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { signIn } from './http.ts';
import { startVault } from './processes.ts';
import type { Verdict } from './verdict.ts';

const ADMIN = 'bench_admin';
const PASSWORD = 'bench sync password';

interface Change {
  method: string;
  path: string;
  body: FormData | string;
  key: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchOfflineSync(): Promise<Verdict[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-sync-'));
  const vault = await startVault(dataDir, [], {
    VAULT_ADMIN_USERNAME: ADMIN,
    VAULT_ADMIN_PASSWORD: PASSWORD,
  });
  try {
    const { cookie } = await signIn(vault.origin, ADMIN, PASSWORD);
    const headers = { cookie, origin: vault.origin };
    const photo = await sharp({
      create: { width: 1200, height: 1600, channels: 3, background: { r: 120, g: 30, b: 40 } },
    })
      .jpeg()
      .toBuffer();

    // The entries the bottles and tastings of the queue belong to, logged before the signal went.
    const entryIds: number[] = [];
    for (let i = 0; i < 50; i++) {
      const form = new FormData();
      form.append('name', `Cellar wine ${i}`);
      form.append('type', 'WINE');
      const res = await fetch(`${vault.origin}/api/beverages`, {
        method: 'POST',
        headers,
        body: form,
      });
      if (res.status !== 201) throw new Error(`seed entry: ${res.status}`);
      entryIds.push(((await res.json()) as { beverage: { id: number } }).beverage.id);
    }
    // One bottle line of twelve on each, so that the queue's openings have bottles to open.
    const bottleIds: number[] = [];
    for (const id of entryIds) {
      const res = await fetch(`${vault.origin}/api/beverages/${id}/bottles`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ quantity: 12 }),
      });
      if (res.status !== 201) throw new Error(`seed bottle: ${res.status}`);
      bottleIds.push(((await res.json()) as { bottle: { id: number } }).bottle.id);
    }

    const queue: Change[] = [];
    for (let i = 0; i < 50; i++) {
      const form = new FormData();
      form.append('name', `Logged offline ${i}`);
      form.append('type', i % 2 ? 'BEER' : 'WHISKEY');
      if (i % 5 === 0) form.append('photo', new Blob([photo], { type: 'image/jpeg' }), 'p.jpg');
      queue.push({ method: 'POST', path: '/api/beverages', body: form, key: `log-${i}` });
    }
    for (let i = 0; i < 50; i++) {
      queue.push({
        method: 'POST',
        path: `/api/beverages/${entryIds[i]}/bottles`,
        body: JSON.stringify({
          quantity: 2,
          vintage: 2015 + (i % 8),
          price: 24.5,
          currency: 'EUR',
        }),
        key: `bottle-${i}`,
      });
    }
    for (let i = 0; i < 50; i++) {
      queue.push({
        method: 'POST',
        path: `/api/beverages/${entryIds[i]}/bottles/${bottleIds[i]}/open`,
        body: JSON.stringify({ tasting: { rating: 4, notes: 'Opened in the basement.' } }),
        key: `open-${i}`,
      });
    }
    for (let i = 0; i < 50; i++) {
      queue.push({
        method: 'POST',
        path: `/api/beverages/${entryIds[i]}/tastings`,
        body: JSON.stringify({ rating: 3, notes: 'A second glass.' }),
        key: `tasting-${i}`,
      });
    }

    const send = async (change: Change) => {
      const started = performance.now();
      const res = await fetch(`${vault.origin}${change.path}`, {
        method: change.method,
        headers: {
          ...headers,
          'idempotency-key': change.key,
          ...(typeof change.body === 'string' && { 'content-type': 'application/json' }),
        },
        body: change.body,
      });
      await res.arrayBuffer();
      return {
        ms: performance.now() - started,
        ok: res.status === 200 || res.status === 201,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      };
    };
    const run = async () => {
      const started = performance.now();
      const results = [];
      for (const change of queue) results.push(await send(change));
      const total = performance.now() - started;
      const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
      return {
        total,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        failed: results.filter((r) => !r.ok).length,
        replayed: results.filter((r) => r.replayed).length,
      };
    };

    console.log('\nThe sync of 200 changes queued offline, one at a time, in order:');
    const first = await run();
    console.log(
      `  first sync: ${(first.total / 1000).toFixed(2)} s in all, p50 ${first.p50.toFixed(1)} ms, ` +
        `p99 ${first.p99.toFixed(1)} ms a change; refused: ${first.failed}`,
    );
    const again = await run();
    console.log(
      `  sent again (every answer lost): ${(again.total / 1000).toFixed(2)} s, p50 ${again.p50.toFixed(1)} ms, ` +
        `p99 ${again.p99.toFixed(1)} ms; answered from the key: ${again.replayed} of 200`,
    );
    const list = await fetch(`${vault.origin}/api/beverages?q=offline&limit=200`, { headers });
    const logged = ((await list.json()) as { beverages: unknown[] }).beverages.length;
    console.log(`  entries 'Logged offline' in the vault: ${logged} (50 expected)`);
    return [
      {
        target: 'every queued change applied on the first sync',
        figure: `${200 - first.failed} of 200`,
        met: first.failed === 0,
      },
      {
        target: 'sending the queue again applies nothing twice',
        figure: `${again.replayed} of 200 replayed, ${logged} entries`,
        met: again.replayed === 200 && logged === 50,
      },
      {
        target: 'the sync of 200 changes takes under 10 s',
        figure: `${(first.total / 1000).toFixed(2)} s`,
        met: first.total < 10_000,
      },
    ];
  } finally {
    await vault.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
