import type Database from 'better-sqlite3';

/**
 * Runs `work` in one SQLite transaction (BEGIN IMMEDIATE; a nested call becomes a savepoint)
 * and returns its result; an exception rolls everything back. better-sqlite3 is synchronous,
 * so `work` must not await: every repository call inside it joins the transaction. This is the
 * one way services write across aggregates (an entry and its activity, a follow and its
 * notification's activity), so the writes and what others must learn of them commit together.
 */
export type Transaction = <T>(work: () => T) => T;

export function createTransaction(sqlite: Database.Database): Transaction {
  return (work) => sqlite.transaction(work).immediate();
}
