// Starting the servers the benchmark measures, as separate processes on loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const root = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Running {
  origin: string;
  pid: number;
  /** From spawning the process to its first answer, in ms. */
  startMs: number;
  /** Resident memory now, in MB (from /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

async function startProcess(
  args: string[],
  env: Record<string, string>,
  probePath: string,
): Promise<Running> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', VAULT_ORIGIN: origin },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const kill = () => child.kill('SIGTERM');
  process.on('exit', kill);
  for (;;) {
    try {
      await fetch(`${origin}${probePath}`);
      break;
    } catch {
      if (performance.now() - started > 30_000) throw new Error(`${args[0]} did not start`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const startMs = performance.now() - started;
  return {
    origin,
    pid: child.pid!,
    startMs,
    rssMb: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
    },
    async stop() {
      process.off('exit', kill);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      kill();
      await exited;
    },
  };
}

/**
 * The environment `npm start` gives the vault: malloc arenas and the compile cache (see
 * docs/configuration.md, "Memory").
 */
export function startEnvironment(): Record<string, string> {
  return {
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    NODE_COMPILE_CACHE:
      process.env.NODE_COMPILE_CACHE ?? path.join(root, 'node_modules', '.cache', 'vault-compile'),
  };
}

/**
 * The vault as `npm start` runs it (its environment above, and the young generation's size).
 * `nodeOptions` go before the script (bench/heap.ts asks for heap snapshots that way); `env`
 * adds settings.
 */
export function startVault(
  dataDir: string,
  nodeOptions: string[] = [],
  env: Record<string, string> = {},
): Promise<Running> {
  return startProcess(
    ['--max-semi-space-size=2', ...nodeOptions, 'src/main.ts'],
    {
      ...startEnvironment(),
      VAULT_DATA_DIR: dataDir,
      VAULT_LOG_LEVEL: 'warning',
      ...env,
    },
    '/api/auth/me',
  );
}

export function startBareHono(): Promise<Running> {
  return startProcess(['bench/bare-hono.ts'], {}, '/hello');
}
