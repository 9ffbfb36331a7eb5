import { createHash } from 'node:crypto';
import type { Database, Statement } from '../../src/db/database.ts';

/** Per table: its row count and a hash of all its rows (in a stable order). */
export type DatabaseSnapshot = Record<string, { rows: number; hash: string }>;

/**
 * Every table's rows, counted and hashed, leaving out the columns named in `ignore`
 * (`{ sessions: ['last_seen_at'] }`; `'*'` leaves out the whole table). Two equal snapshots mean no row changed.
 */
export async function snapshotDatabase(
  database: Database,
  ignore: Record<string, readonly string[]> = {},
): Promise<DatabaseSnapshot> {
  const lines = new Map<string, string[]>();
  for (const { t: table, l: line } of await (await readAll(database, ignore)).all()) {
    let list = lines.get(table);
    if (!list) lines.set(table, (list = []));
    if (line !== null) list.push(line);
  }
  const snapshot: DatabaseSnapshot = {};
  for (const [table, rows] of lines) {
    const hash = createHash('sha256');
    for (const line of rows.sort()) hash.update(line).update('\n');
    snapshot[table] = { rows: rows.length, hash: hash.digest('hex').slice(0, 16) };
  }
  return snapshot;
}

/** Each table's columns, in order: SQLite's own catalogue, or PostgreSQL's (its public schema). */
const CATALOGUE = {
  sqlite: `SELECT m.name AS t, c.name AS c FROM sqlite_master m, pragma_table_info(m.name) c
           WHERE m.type = 'table' ORDER BY m.name, c.cid`,
  postgres: `SELECT table_name AS t, column_name AS c FROM information_schema.columns
             WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
};

/** A column's value as one SQL literal, so blobs and nulls are told apart. */
const quoted = {
  sqlite: (column: string) => `quote("${column}")`,
  postgres: (column: string) => `quote_nullable("${column}"::text)`,
};

type Line = { t: string; l: string | null };

/**
 * One statement that reads every table's rows, each row as one text (its columns' SQL literals),
 * plus a row with a null line per table so that empty tables are listed. Snapshots are taken
 * around every request of the fuzz test: one statement per table, prepared each time, cost
 * about four times as much. Prepared once per database, schema and `ignore`.
 */
const statements = new WeakMap<Database, Map<string, Statement<Line>>>();
async function readAll(database: Database, ignore: Record<string, readonly string[]>) {
  const columns = new Map<string, string[]>();
  for (const { t, c } of await database.prepare<{ t: string; c: string }>(CATALOGUE).all()) {
    let list = columns.get(t);
    if (!list) columns.set(t, (list = []));
    list.push(c);
  }
  const key = JSON.stringify([[...columns], ignore]);
  let cache = statements.get(database);
  if (!cache) statements.set(database, (cache = new Map()));
  let statement = cache.get(key);
  if (!statement) {
    const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const parts = [...columns]
      .filter(([table]) => !ignore[table]?.includes('*'))
      .map(([table, names]) => {
        const row =
          names
            .filter((name) => !ignore[table]?.includes(name))
            .map(quoted[database.engine])
            .join(" || ',' || ") || "''";
        return `SELECT ${literal(table)} AS t, ${row} AS l FROM "${table}"
                UNION ALL SELECT ${literal(table)}, NULL`;
      });
    statement = database.prepare<Line>(parts.join(' UNION ALL '));
    cache.set(key, statement);
  }
  return statement;
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => {
    const a = before[name];
    const b = after[name];
    return !a || !b || a.rows !== b.rows || a.hash !== b.hash;
  });
}
