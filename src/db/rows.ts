import type { Table } from 'drizzle-orm';
import { getTableColumns } from './orm.ts';

/**
 * Reading a table's rows as its schema types them (`typeof table.$inferSelect`): the keys of
 * the schema (camelCase) and its values (a Date for a timestamp, a boolean for a flag), from a
 * row of `SELECT *` or `RETURNING *` as the engine answers it (snake_case columns, numbers).
 * Built once per table from its drizzle columns, so the two never disagree.
 */
export function rowReader<T extends Table>(table: T): (row: unknown) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.name,
    read: (value: unknown) => (value === null ? null : column.mapFromDriverValue(value)),
  }));
  return (row) => {
    const source = row as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const column of columns) out[column.key] = column.read(source[column.name] ?? null);
    return out as T['$inferSelect'];
  };
}

/** Like rowReader, for a row that may be missing. */
export function optionalRow<R>(read: (row: unknown) => R): (row: unknown) => R | undefined {
  return (row) => (row === undefined ? undefined : read(row));
}

/**
 * The value a column of `table` is stored as (a timestamp's milliseconds, a flag's 0 or 1),
 * for a parameter of a hand-written statement.
 */
export function storedValue<T extends Table>(
  table: T,
  key: keyof T['$inferSelect'] & string,
  value: unknown,
): unknown {
  const column = getTableColumns(table)[key];
  if (!column) throw new Error(`no column ${key}`);
  return value === null || value === undefined ? null : column.mapToDriverValue(value);
}
