import { createRequire } from 'node:module';
import type * as Core from 'drizzle-orm';
import type * as BetterSqlite from 'drizzle-orm/better-sqlite3';
import type * as Migrator from 'drizzle-orm/better-sqlite3/migrator';
import type * as SqliteCore from 'drizzle-orm/sqlite-core';

/**
 * drizzle-orm, loaded through its CommonJS build. Every drizzle import in the vault goes
 * through this module (types may be imported from 'drizzle-orm' directly: they are erased).
 *
 * Why: under Node's ESM loader, each of drizzle's ~200 modules makes Node parse drizzle's
 * 179 KB package.json again to resolve it, which took about 500 ms and grew the process by
 * about 100 MB at start; the CommonJS build of the same code loads in about 80 ms. See
 * docs/performance.md ("Start-up and memory").
 */
const require = createRequire(
  typeof import.meta.url === 'string' ? import.meta.url : `file://${process.cwd()}/package.json`,
);

const core = require('drizzle-orm') as typeof Core;
const sqliteCore = require('drizzle-orm/sqlite-core') as typeof SqliteCore;
const betterSqlite = require('drizzle-orm/better-sqlite3') as typeof BetterSqlite;
const migrator = require('drizzle-orm/better-sqlite3/migrator') as typeof Migrator;

export const { and, asc, desc, eq, getTableColumns, isNull, lt, ne, or, sql } = core;
export const { blob, check, index, integer, primaryKey, sqliteTable, text, unique, uniqueIndex } =
  sqliteCore;
export const { drizzle } = betterSqlite;
export const { migrate } = migrator;
