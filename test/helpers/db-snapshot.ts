import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** Per table: its row count and a hash of all its rows (in a stable order). */
export type DatabaseSnapshot = Record<string, { rows: number; hash: string }>;

/**
 * Every table's rows, counted and hashed, leaving out the columns named in `ignore`
 * (`{ sessions: ['last_seen_at'] }`; `'*'` leaves out the whole table). Two equal snapshots mean no row changed.
 */
export function snapshotDatabase(
  sqlite: Database.Database,
  ignore: Record<string, readonly string[]> = {},
): DatabaseSnapshot {
  const lines = new Map<string, string[]>();
  for (const [table, line] of readAll(sqlite, ignore).all() as [string, string | null][]) {
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

/**
 * One statement that reads every table's rows, each row as one text (its columns' SQL literals,
 * `quote()`, so blobs and nulls are told apart), plus a row with a null line per table so that
 * empty tables are listed. Snapshots are taken around every request of the fuzz test: one
 * statement per table, prepared each time, cost about four times as much. Prepared once per
 * connection, schema and `ignore`.
 */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
function readAll(sqlite: Database.Database, ignore: Record<string, readonly string[]>) {
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  const key = JSON.stringify([tables, ignore]);
  let cache = statements.get(sqlite);
  if (!cache) statements.set(sqlite, (cache = new Map()));
  let statement = cache.get(key);
  if (!statement) {
    const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const parts = tables
      .filter((table) => !ignore[table]?.includes('*'))
      .map((table) => {
        const columns = (sqlite.pragma(`table_info("${table}")`) as { name: string }[])
          .map((c) => c.name)
          .filter((name) => !ignore[table]?.includes(name));
        const row = columns.map((c) => `quote("${c}")`).join(" || ',' || ") || "''";
        return `SELECT ${literal(table)}, ${row} FROM "${table}" UNION ALL SELECT ${literal(table)}, NULL`;
      });
    statement = sqlite.prepare(parts.join(' UNION ALL ')).raw();
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
