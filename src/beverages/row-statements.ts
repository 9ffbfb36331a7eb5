import type { Table } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { rowReader, storedValue } from '../db/rows.ts';

/**
 * Writing whole rows and changing some of their columns with hand-written SQL, prepared once
 * when the repository is made, as drizzle's `insert(table).values(row).returning()` and
 * `update(table).set(changes).returning()` did: the row answered as the schema types it
 * (src/db/rows.ts), the values given in their stored form (a Date's milliseconds, a flag's 0
 * or 1). For the repositories of entries, bottles and tastings, which name the table and its
 * columns (`columns`: each field's column).
 */

type Row<T extends Table> = T['$inferSelect'];
type Field<T extends Table> = keyof Row<T> & string;

/** A value of `table`'s field in its stored form, for a parameter. */
function stored<T extends Table>(table: T, key: string, value: unknown): unknown {
  return storedValue(table, key as Field<T>, value);
}

/**
 * `INSERT INTO name (every column but id) VALUES (…) RETURNING *`: every column is given (the
 * schema's SQL defaults apply to none), so `columns` names them all.
 */
export function insertStatement<T extends Table>(
  db: Database,
  table: T,
  name: string,
  columns: Record<Exclude<Field<T>, 'id'>, string>,
) {
  const keys = Object.keys(columns);
  const statement = db.prepare(
    `INSERT INTO ${name} (${Object.values<string>(columns).join(', ')})
     VALUES (${keys.map((key) => `@${key}`).join(', ')}) RETURNING *`,
  );
  const read = rowReader(table);
  return async (row: Omit<Row<T>, 'id'>): Promise<Row<T>> => {
    const values = row as Record<string, unknown>;
    const params: Record<string, unknown> = {};
    for (const key of keys) params[key] = stored(table, key, values[key]);
    return read(await statement.get(params));
  };
}

/**
 * `UPDATE name SET … WHERE id = @id RETURNING *` over the columns a change may set: each
 * column is set to its new value when the change gives one (@set_<field> is 1) and left as it
 * is otherwise, as drizzle set only the values given (undefined ones left out). Answers the
 * changed row, or undefined when there is no row of that id.
 */
export function updateStatement<T extends Table, K extends Field<T>>(
  db: Database,
  table: T,
  name: string,
  columns: Record<K, string>,
) {
  const fields = Object.entries<string>(columns);
  const statement = db.prepare(
    `UPDATE ${name} SET ${fields
      .map(([key, column]) => `${column} = CASE WHEN @set_${key} THEN @${key} ELSE ${column} END`)
      .join(', ')}
     WHERE id = @id RETURNING *`,
  );
  const read = rowReader(table);
  return async (id: number, changes: Partial<Pick<Row<T>, K>>): Promise<Row<T> | undefined> => {
    const values = changes as Record<string, unknown>;
    const params: Record<string, unknown> = { id };
    for (const [key] of fields) {
      const value = values[key];
      params[`set_${key}`] = value === undefined ? 0 : 1;
      params[key] = value === undefined ? null : stored(table, key, value);
    }
    const row = await statement.get(params);
    return row === undefined ? undefined : read(row);
  };
}
