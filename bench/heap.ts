// `BENCH_ONLY=heap npm run bench`: where an idle vault's memory goes. Starts the vault as
// `npm start` does, waits as the idle measurement does, then prints its resident memory by
// kind (Node's own binary, native add-ons, anonymous memory: the JavaScript heap and malloc)
// from /proc, and the JavaScript heap charged to modules from a heap snapshot
// (bench/heap-snapshot.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { heapByModule } from './heap-snapshot.ts';
import { startVault } from './processes.ts';

const root = path.resolve(import.meta.dirname, '..');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).padStart(6)} MB`;

/** Resident bytes by mapping (file name, or the kind of anonymous memory) from smaps. */
function residentByMapping(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let name = '';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const file = mapping[1]!;
      name = file === '' ? 'anonymous (V8 heap, malloc, WebAssembly)' : file;
      if (file === '[heap]') name = 'malloc heap ([heap])';
      else if (file.startsWith(root)) name = path.relative(root, file);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) byName.set(name, (byName.get(name) ?? 0) + Number(rss[1]) * 1024);
  }
  return byName;
}

async function waitForSnapshot(dir: string): Promise<string> {
  const started = Date.now();
  let lastSize = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.heapsnapshot'));
    if (file) {
      const full = path.join(dir, file);
      const size = fs.statSync(full).size;
      if (size === lastSize && size > 0) return full;
      lastSize = size;
    }
    if (Date.now() - started > 120_000) throw new Error('no heap snapshot after 2 minutes');
  }
}

export async function printIdleHeap(dataDir: string): Promise<void> {
  const snapshots = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-heap-'));
  const vault = await startVault(dataDir, [
    '--heapsnapshot-signal=SIGUSR2',
    `--diagnostic-dir=${snapshots}`,
  ]);
  try {
    await new Promise((r) => setTimeout(r, 2000)); // as the idle measurement waits
    const total = vault.rssMb();
    const mappings = [...residentByMapping(vault.pid)].sort((a, b) => b[1] - a[1]);
    process.kill(vault.pid, 'SIGUSR2');
    const heap = heapByModule(fs.readFileSync(await waitForSnapshot(snapshots), 'utf8'), root);

    console.log(`\nResident memory 2 s after start: ${total.toFixed(1)} MB (target <= 120 MB)`);
    for (const [name, bytes] of mappings.filter(([, b]) => b >= 512 * 1024)) {
      console.log(`  ${mb(bytes)}  ${name}`);
    }
    console.log(`\nJavaScript heap (objects alive in the snapshot): ${mb(heap.total).trim()}`);
    console.log('  by module (what each module holds: its code, and what only it keeps alive):');
    for (const m of heap.modules.filter((m) => m.bytes >= 64 * 1024)) {
      console.log(`  ${mb(m.bytes)}  ${m.module}`);
    }
    console.log('\n  the largest single objects, by what they keep alive:');
    for (const o of heap.largest) console.log(`  ${mb(o.retained)}  ${o.module}: ${o.what}`);
  } finally {
    await vault.stop();
    fs.rmSync(snapshots, { recursive: true, force: true });
  }
}
