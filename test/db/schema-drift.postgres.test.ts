import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { migratePostgres } from '../../src/db/postgres-migrate.ts';
import { testDatabase } from '../helpers/postgres.ts';

/** What both engines must agree on, table by table. */
interface Shape {
  /** Column name → 'null' | 'not null'. */
  columns: Record<string, string>;
  /** The primary key's columns, in order. */
  primaryKey: string[];
  /** Indexes made by the schema's index(), by name. */
  indexes: string[];
  /** The columns of each unique index or constraint but the primary key ("a,b"), sorted. */
  uniques: string[];
  /** How many foreign keys the table has. */
  foreignKeys: number;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function sqliteShapes(): Record<string, Shape> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-drift-'));
  tempDirs.push(dir);
  const { sqlite, close } = openDatabase(path.join(dir, 'vault.sqlite'));
  try {
    const tables = sqlite
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'`,
      )
      .pluck()
      .all() as string[];
    const shapes: Record<string, Shape> = {};
    for (const table of tables) {
      const info = sqlite.pragma(`table_info(${table})`) as {
        name: string;
        notnull: number;
        pk: number;
      }[];
      const indexes = sqlite.pragma(`index_list(${table})`) as {
        name: string;
        unique: number;
        origin: string;
      }[];
      const columnsOf = (index: string) =>
        (sqlite.pragma(`index_info(${index})`) as { name: string }[]).map((c) => c.name).join(',');
      shapes[table] = {
        columns: Object.fromEntries(
          info.map((c) => [c.name, c.notnull || c.pk ? 'not null' : 'null']),
        ),
        primaryKey: info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        indexes: indexes
          .filter((i) => !i.unique)
          .map((i) => i.name)
          .sort(),
        uniques: indexes
          .filter((i) => i.unique && i.origin !== 'pk')
          .map((i) => columnsOf(i.name))
          .sort(),
        foreignKeys: new Set(
          (sqlite.pragma(`foreign_key_list(${table})`) as { id: number }[]).map((k) => k.id),
        ).size,
      };
    }
    return shapes;
  } finally {
    close();
  }
}

async function postgresShapes(): Promise<Record<string, Shape>> {
  const database = testDatabase()!;
  await database.create();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    // The template is migrated already: migrating again must find nothing to do.
    await migratePostgres(pool);
    const columns = await pool.query<{
      table_name: string;
      column_name: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public'`,
    );
    const keys = await pool.query<{ table_name: string; columns: string[]; contype: string }>(
      `SELECT c.conrelid::regclass::text AS table_name, c.contype,
              array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
                    ORDER BY k.i) AS columns
       FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace
       WHERE ns.nspname = 'public' AND c.contype IN ('p', 'f')`,
    );
    const indexes = await pool.query<{
      table_name: string;
      index_name: string;
      unique: boolean;
      columns: string;
    }>(
      `SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS unique,
              array_to_string(array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(n, o)
                    JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n
                    ORDER BY k.o), ',') AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace ns ON ns.oid = t.relnamespace
       WHERE ns.nspname = 'public' AND NOT x.indisprimary`,
    );
    const shapes: Record<string, Shape> = {};
    const shape = (table: string) =>
      (shapes[table] ??= { columns: {}, primaryKey: [], indexes: [], uniques: [], foreignKeys: 0 });
    for (const c of columns.rows) {
      shape(c.table_name).columns[c.column_name] = c.is_nullable === 'YES' ? 'null' : 'not null';
    }
    for (const k of keys.rows) {
      if (k.contype === 'p') shape(k.table_name).primaryKey = k.columns;
      else shape(k.table_name).foreignKeys++;
    }
    for (const i of indexes.rows) {
      if (i.unique) shape(i.table_name).uniques.push(i.columns);
      else shape(i.table_name).indexes.push(i.index_name);
    }
    for (const table of Object.values(shapes)) {
      table.indexes.sort();
      table.uniques.sort();
    }
    return shapes;
  } finally {
    await pool.end();
    await database.drop();
  }
}

describe('the schema on both engines', () => {
  it('has the same tables, columns, keys and indexes once migrated', async () => {
    const sqlite = sqliteShapes();
    const postgres = await postgresShapes();
    expect(Object.keys(postgres).sort()).toEqual(Object.keys(sqlite).sort());
    for (const table of Object.keys(sqlite)) {
      expect({ table, ...postgres[table] }).toEqual({ table, ...sqlite[table] });
    }
  });
});
