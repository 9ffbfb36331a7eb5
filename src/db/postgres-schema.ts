import { createRequire } from 'node:module';
import type * as Core from 'drizzle-orm';
import type * as PgCore from 'drizzle-orm/pg-core';
import type * as SqliteCore from 'drizzle-orm/sqlite-core';
import * as schema from './schema/index.ts';

/**
 * The PostgreSQL schema, made from the one schema source (`src/db/schema/`, written for
 * SQLite): each table with the same columns, keys, indexes, checks and foreign keys. drizzle-kit
 * reads it (through src/db/postgres-tables.ts) to write `migrations-postgres/`, and
 * test/db/schema-drift.test.ts checks that both engines' migrated databases agree.
 *
 * Every column is stored as it is on SQLite, so one SQL text serves both engines: integers,
 * booleans (0/1) and timestamps (milliseconds since 1970) as bigint, text as text compared byte
 * by byte (COLLATE "C", as SQLite's BINARY), reals as double precision, blobs as bytea
 * (docs/scaling.md, "One schema, two engines").
 */
const require = createRequire(
  typeof import.meta.url === 'string' ? import.meta.url : `file://${process.cwd()}/package.json`,
);
const { is, SQL, sql } = require('drizzle-orm') as typeof Core;
const pg = require('drizzle-orm/pg-core') as typeof PgCore;
const { getTableConfig, SQLiteTable } = require('drizzle-orm/sqlite-core') as typeof SqliteCore;

type AnyBuilder = ReturnType<typeof pg.bigint> & Record<string, (...args: unknown[]) => AnyBuilder>;
type SqliteColumn = SqliteCore.AnySQLiteColumn & { autoIncrement?: boolean };

const bytea = pg.customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
/**
 * Text compared and sorted byte by byte, as SQLite's BINARY collation does, whatever locale the
 * database was made with: so ORDER BY username and a page's keyset agree on both engines.
 */
const text = pg.customType<{ data: string; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
});

/** The SQLite default expressions of the schema, and what PostgreSQL computes for each. */
const DEFAULT_EXPRESSIONS: Record<string, string> = {
  "(unixepoch('subsec') * 1000)": '(floor(extract(epoch from clock_timestamp()) * 1000))::bigint',
};

/** The text of a SQL default as the schema wrote it (it has no parameters). */
function textOf(value: Core.SQL): string {
  return value.queryChunks
    .map((chunk) => (chunk as { value?: string[] }).value?.join('') ?? '')
    .join('');
}

function columnOf(source: SqliteColumn): AnyBuilder {
  let column: AnyBuilder;
  switch (source.columnType) {
    case 'SQLiteInteger':
    case 'SQLiteTimestamp':
    case 'SQLiteBoolean':
      column = pg.bigint(source.name, { mode: 'number' }) as AnyBuilder;
      break;
    case 'SQLiteText':
    case 'SQLiteTextJson':
      column = text(source.name) as unknown as AnyBuilder;
      break;
    case 'SQLiteReal':
      column = pg.doublePrecision(source.name) as unknown as AnyBuilder;
      break;
    case 'SQLiteBlobBuffer':
      column = bytea(source.name) as unknown as AnyBuilder;
      break;
    default:
      throw new Error(`No PostgreSQL type for ${source.columnType} (${source.name})`);
  }
  if (source.primary) {
    column = column.primaryKey!();
    if (source.autoIncrement) column = column.generatedByDefaultAsIdentity!();
  }
  if (source.notNull) column = column.notNull!();
  if (source.hasDefault && source.default !== undefined) {
    const value = source.default;
    if (is(value, SQL)) {
      const mapped = DEFAULT_EXPRESSIONS[textOf(value)];
      if (!mapped) throw new Error(`No PostgreSQL default for ${textOf(value)}`);
      column = column.default!(sql.raw(mapped));
    } else {
      column = column.default!(source.mapToDriverValue(value) as never);
    }
  }
  if (source.isUnique) column = column.unique!(source.uniqueName);
  return column;
}

/** A table's SQL expression (a check, an index's where), pointing at the new table's columns. */
function rebound(value: Core.SQL, columns: Record<string, unknown>, keyOf: Map<string, string>) {
  const chunks: unknown[] = value.queryChunks.map((chunk) => {
    if (is(chunk, SQL)) return rebound(chunk, columns, keyOf);
    const name = (chunk as { columnType?: string; name?: string }).columnType
      ? (chunk as { name: string }).name
      : undefined;
    return name === undefined ? chunk : columns[keyOf.get(name)!];
  });
  return new SQL(chunks as ConstructorParameters<typeof SQL>[0]);
}

function convert(table: SqliteCore.SQLiteTable, done: Map<string, PgCore.PgTable>) {
  const config = getTableConfig(table);
  const keyOf = new Map<string, string>();
  for (const [key, value] of Object.entries(table)) {
    if (value && typeof value === 'object' && 'columnType' in value) {
      keyOf.set((value as SqliteColumn).name, key);
    }
  }
  const columns: Record<string, AnyBuilder> = {};
  for (const column of config.columns) columns[keyOf.get(column.name)!] = columnOf(column);
  return pg.pgTable(config.name, columns, (t) => {
    const own = t as unknown as Record<string, unknown>;
    const col = (c: { name: string }) => own[keyOf.get(c.name)!] as PgCore.PgColumn;
    const extras: unknown[] = [];
    for (const { config: index } of config.indexes) {
      const parts = index.columns.map((c) =>
        is(c, SQL) ? rebound(c, own, keyOf) : col(c as { name: string }),
      ) as [PgCore.PgColumn];
      let made = (index.unique ? pg.uniqueIndex(index.name) : pg.index(index.name)).on(...parts);
      if (index.where) made = made.where(rebound(index.where, own, keyOf));
      extras.push(made);
    }
    for (const key of config.foreignKeys) {
      const reference = key.reference();
      const target = getTableConfig(reference.foreignTable).name;
      const foreign =
        target === config.name
          ? own
          : (done.get(target) as unknown as Record<string, unknown> | undefined);
      if (!foreign) throw new Error(`${target} must be converted before ${config.name}`);
      const foreignKeys = new Map(
        Object.entries(reference.foreignTable).map(([k, v]) => [v as unknown, k]),
      );
      let made = pg.foreignKey({
        name: key.getName(),
        columns: reference.columns.map(col) as [PgCore.PgColumn],
        foreignColumns: reference.foreignColumns.map(
          (c) => foreign[foreignKeys.get(c)!] as PgCore.PgColumn,
        ) as [PgCore.PgColumn],
      });
      if (key.onDelete) made = made.onDelete(key.onDelete);
      if (key.onUpdate) made = made.onUpdate(key.onUpdate);
      extras.push(made);
    }
    for (const key of config.primaryKeys) {
      extras.push(
        pg.primaryKey({ name: key.getName(), columns: key.columns.map(col) as [PgCore.PgColumn] }),
      );
    }
    for (const unique of config.uniqueConstraints) {
      extras.push(pg.unique(unique.name).on(...(unique.columns.map(col) as [PgCore.PgColumn])));
    }
    for (const check of config.checks)
      extras.push(pg.check(check.name, rebound(check.value, own, keyOf)));
    return extras as PgCore.PgTableExtraConfigValue[];
  });
}

/** Every table of the schema for PostgreSQL, by the name the schema exports it under. */
export function postgresTables(): Record<string, PgCore.PgTable> {
  const tables = Object.entries(schema).filter(([, value]) => is(value, SQLiteTable)) as [
    string,
    SqliteCore.SQLiteTable,
  ][];
  const done = new Map<string, PgCore.PgTable>();
  const out: Record<string, PgCore.PgTable> = {};
  let pending = tables;
  while (pending.length > 0) {
    const waiting = pending.filter(([, table]) => {
      const config = getTableConfig(table);
      const ready = config.foreignKeys.every((key) => {
        const target = getTableConfig(key.reference().foreignTable).name;
        return target === config.name || done.has(target);
      });
      if (!ready) return true;
      return false;
    });
    const converted = pending.filter((entry) => !waiting.includes(entry));
    if (converted.length === 0) throw new Error('The schema has a cycle of foreign keys');
    for (const [key, table] of converted) {
      const made = convert(table, done);
      done.set(getTableConfig(table).name, made);
      out[key] = made;
    }
    pending = waiting;
  }
  return out;
}
