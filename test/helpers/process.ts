import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { testDatabase } from './postgres.ts';
import { TEST_RSA_KEY_BITS } from './test-keys.ts';

export const root = path.resolve(import.meta.dirname, '..', '..');

/** A free loopback port (reserved and released at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface VaultProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `node src/main.ts` (as `npm start` runs it) on a loopback port, with that address as
 * its VAULT_ORIGIN and `env` added, and
 * resolves once it logs that it listens; rejects if it exits or takes over 60 s (a start on a
 * machine whose cores other jobs hold has taken over 20 s).
 */
export async function startVaultProcess(env: Record<string, string>): Promise<VaultProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VAULT_ORIGIN: url,
      VAULT_RSA_KEY_BITS: TEST_RSA_KEY_BITS,
      ...env,
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), 60_000);
    child.stdout.on('data', () => {
      if (output.includes('is listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`exited:\n${output}`)));
  });
  return { child, port, url, output: () => output, exited };
}

/**
 * The database of the vault processes a test starts on `dataDir`: on PostgreSQL its own,
 * made here (test/helpers/postgres.ts) and named to each process by `env`; on SQLite the file
 * in the data folder, which the first process makes. Each process migrates it at start.
 */
export interface ProcessDatabase {
  engine: 'sqlite' | 'postgres';
  /** The settings that point a process (or the command line) at it: none on SQLite. */
  env: Record<string, string>;
  /** The first column of each row `sql` reads, straight from the database, as another client. */
  pluck<Value>(sql: string): Promise<Value[]>;
  /** SQLite's check of its file ('ok' when intact); PostgreSQL has none to ask. */
  sqliteIntegrity(): string;
  /** Drops the PostgreSQL database, whoever is still connected; nothing on SQLite. */
  drop(): Promise<void>;
}

export async function processDatabase(dataDir: string): Promise<ProcessDatabase> {
  const postgres = testDatabase();
  const file = path.join(dataDir, 'vault.sqlite');
  const onSqlite = <T>(read: (db: Database.Database) => T): T => {
    const db = new Database(file);
    try {
      return read(db);
    } finally {
      db.close();
    }
  };
  const sqliteIntegrity = () =>
    onSqlite((db) => db.pragma('integrity_check', { simple: true }) as string);
  if (!postgres) {
    return {
      engine: 'sqlite',
      env: {},
      pluck: async <Value>(sql: string) =>
        onSqlite((db) => db.prepare(sql).pluck().all() as Value[]),
      sqliteIntegrity,
      drop: async () => {},
    };
  }
  await postgres.create();
  return {
    engine: 'postgres',
    env: { VAULT_DATABASE_URL: postgres.url },
    async pluck<Value>(sql: string) {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      try {
        const { rows } = await client.query({ text: sql, rowMode: 'array' });
        return rows.map((row: unknown[]) => row[0] as Value);
      } finally {
        await client.end();
      }
    },
    sqliteIntegrity: () => {
      throw new Error('the vault is on PostgreSQL, not in a SQLite file');
    },
    drop: postgres.drop,
  };
}
