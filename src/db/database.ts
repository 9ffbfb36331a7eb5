/**
 * The vault's way in to its database, the same on every engine: statements prepared once and
 * run asynchronously, and one `transaction()` for writes that must commit together. The
 * embedded engine is SQLite (src/db/sqlite-database.ts); repositories see only this interface.
 *
 * A statement's text is SQL that both engines accept, or one text per engine (`SqlText`),
 * chosen when it is prepared. Parameters are positional (`?`, given in order) or named
 * (`@name`, given as one object), as better-sqlite3 takes them.
 */
export type Engine = 'sqlite' | 'postgres';

/** SQL that both engines run as written, or a version for each. */
export type SqlText = string | { readonly sqlite: string; readonly postgres: string };

export interface RunResult {
  /** Rows the statement inserted, changed or deleted. */
  changes: number;
}

/** A prepared statement. Each call runs it once, inside the caller's transaction if any. */
export interface Statement<Row = unknown> {
  /** Every row. */
  all(...params: unknown[]): Promise<Row[]>;
  /** The first row, or undefined. */
  get(...params: unknown[]): Promise<Row | undefined>;
  /** Runs a statement that returns no rows (or whose rows are not wanted). */
  run(...params: unknown[]): Promise<RunResult>;
  /** The same statement, answering each row's first column instead of the row. */
  pluck<Value = unknown>(): Statement<Value>;
}

/** Numbers that change when the database may have changed, for read caches to ask cheaply. */
export interface ChangeStamp {
  /** Changes whenever the database may have changed (this process's writes at once). */
  current(): number;
  /** Changes when another process (or connection) has written. */
  otherConnections(): number;
}

export interface Database {
  readonly engine: Engine;
  /** When the database may have changed (src/db/read-cache.ts). */
  readonly changes: ChangeStamp;
  /** Prepares a statement once (at start-up, by a repository), to be run many times. */
  prepare<Row = unknown>(text: SqlText): Statement<Row>;
  /** Runs SQL with no parameters and no answer (several statements allowed). */
  exec(text: SqlText): Promise<void>;
  /**
   * Runs `work` in one transaction and returns its result; an exception rolls it all back.
   * Every statement `work` runs, however deep in the calls it makes, joins the transaction; a
   * nested call is a savepoint. No other statement sees the transaction's writes before it
   * commits. `work` should await only the database: while it runs, the embedded engine runs
   * nothing else (src/db/sqlite-database.ts).
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** True while the caller runs inside a transaction. */
  inTransaction(): boolean;
  /** True once closed: background work stops asking. */
  isClosed(): boolean;
  close(): Promise<void>;
}

/** The text of `text` for `engine`. */
export function sqlFor(text: SqlText, engine: Engine): string {
  return typeof text === 'string' ? text : text[engine];
}
