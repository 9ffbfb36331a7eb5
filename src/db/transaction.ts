/**
 * Runs `work` in one transaction and returns its result; an exception rolls everything back
 * (src/db/database.ts, `Database.transaction`). This is the one way services write across
 * aggregates (an entry and its activity, a follow and its notification's activity), and the
 * way a service reads and then writes what it read, so the writes and what others must learn
 * of them commit together and no other request writes in between.
 */
export type Transaction = <T>(work: () => Promise<T>) => Promise<T>;
