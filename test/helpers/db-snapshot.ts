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
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  const snapshot: DatabaseSnapshot = {};
  for (const table of tables) {
    const skipped = new Set(ignore[table] ?? []);
    if (skipped.has('*')) continue;
    const rows = sqlite.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
    const lines = rows
      .map((row) => JSON.stringify(Object.entries(row).filter(([col]) => !skipped.has(col))))
      .sort();
    const hash = createHash('sha256');
    for (const line of lines) hash.update(line).update('\n');
    snapshot[table] = { rows: rows.length, hash: hash.digest('hex').slice(0, 16) };
  }
  return snapshot;
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
