import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A private PostgreSQL for the tests: Debian's `postgresql` package, a cluster made afresh in a
 * temporary folder, listening on a free loopback port and its own socket folder, gone when the
 * run ends. initdb refuses to run as root, so under root the cluster is run by the `postgres`
 * user; any other user runs it as themself. Durability is off (fsync): the data dies with the run.
 */
export interface PostgresCluster {
  /** A URL of the cluster's maintenance database, `postgres`. */
  url: string;
  stop(): Promise<void>;
}

const BIN_ROOT = '/usr/lib/postgresql';

export function postgresBinDir(): string | undefined {
  if (!fs.existsSync(BIN_ROOT)) return undefined;
  const versions = fs
    .readdirSync(BIN_ROOT)
    .filter((name) => fs.existsSync(path.join(BIN_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(BIN_ROOT, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      "PostgreSQL is not installed: the tests on PostgreSQL need Debian's postgresql package (apt-get install -y postgresql).",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-postgres-'));
  const data = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (command: string, args: string[]) =>
    asRoot
      ? (['runuser', ['-u', 'postgres', '--', command, ...args]] as const)
      : ([command, args] as const);
  const [initCommand, initArgs] = run(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'vault',
    '-E',
    'UTF8',
    '--no-sync',
    '--locale=C',
  ]);
  execFileSync(initCommand, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
  ].join(' ');
  const pgCtl = path.join(bin, 'pg_ctl');
  const [startCommand, startArgs] = run(pgCtl, [
    '-D',
    data,
    '-o',
    settings,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  execFileSync(startCommand, startArgs, { stdio: 'pipe' });
  const url = `postgres://vault@127.0.0.1:${port}/postgres`;
  return {
    url,
    async stop() {
      // Immediate: the data dies with the run, so nothing needs writing out.
      const [stopCommand, stopArgs] = run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      try {
        execFileSync(stopCommand, stopArgs, { stdio: 'pipe' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
