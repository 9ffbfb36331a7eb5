import { isDeepStrictEqual } from 'node:util';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import type Database from 'better-sqlite3';
import { durationToMs } from './temporal.ts';

const logger = getLogger(['vault', 'federation', 'kv']);

export interface SqliteKvStoreOptions {
  /** How often expired entries are deleted in the background. 10 minutes by default. */
  purgeIntervalMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface Row {
  key: string;
  value: string;
  expires_at: number | null;
}

/**
 * Fedify's key–value store (document cache, idempotence records, circuit-breaker state) in the
 * app's SQLite file, table federation_kv. The key is the JSON of the key array, the value is
 * JSON. An entry whose TTL has passed is treated as missing at once and deleted lazily (when
 * read) and periodically (purgeExpired, on a timer).
 *
 * better-sqlite3 is synchronous, so every method runs to completion without yielding: a
 * read-compare-write (cas) cannot interleave with another call in this process, and it runs in
 * an IMMEDIATE transaction so that another connection to the same file cannot interleave either.
 */
export class SqliteKvStore implements KvStore {
  readonly #sqlite: Database.Database;
  readonly #now: () => number;
  readonly #purgeTimer: NodeJS.Timeout | undefined;
  readonly #select: Database.Statement<[string], Row>;
  readonly #upsert: Database.Statement<[string, string, number | null]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #deleteIfExpired: Database.Statement<[string, number]>;
  readonly #purge: Database.Statement<[number]>;
  readonly #listAll: Database.Statement<[], Row>;
  readonly #listRange: Database.Statement<[string, string, string], Row>;

  constructor(sqlite: Database.Database, options: SqliteKvStoreOptions = {}) {
    this.#sqlite = sqlite;
    this.#now = options.now ?? Date.now;
    this.#select = sqlite.prepare('SELECT key, value, expires_at FROM federation_kv WHERE key = ?');
    this.#upsert = sqlite.prepare(
      `INSERT INTO federation_kv (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    );
    this.#delete = sqlite.prepare('DELETE FROM federation_kv WHERE key = ?');
    this.#deleteIfExpired = sqlite.prepare(
      'DELETE FROM federation_kv WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?',
    );
    this.#purge = sqlite.prepare(
      'DELETE FROM federation_kv WHERE expires_at IS NOT NULL AND expires_at <= ?',
    );
    this.#listAll = sqlite.prepare('SELECT key, value, expires_at FROM federation_kv ORDER BY key');
    // Keys are JSON arrays: the entries under ["a","b"] are ["a","b"] itself and every key
    // starting with '["a","b",'. That is a range of the primary key (',' + 1 is '-'), which
    // the index serves, and which no character in a key part can escape (unlike LIKE).
    this.#listRange = sqlite.prepare(
      `SELECT key, value, expires_at FROM federation_kv
       WHERE key = ? OR (key >= ? AND key < ?) ORDER BY key`,
    );
    const purgeIntervalMs = options.purgeIntervalMs ?? 10 * 60_000;
    if (purgeIntervalMs > 0) {
      this.#purgeTimer = setInterval(() => this.#purgeSafely(), purgeIntervalMs);
      this.#purgeTimer.unref();
    }
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const encoded = encodeKey(key);
    const row = this.#select.get(encoded);
    if (row === undefined) return undefined;
    const now = this.#now();
    if (isExpired(row, now)) {
      this.#deleteIfExpired.run(encoded, now);
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    this.#write(encodeKey(key), value, options);
  }

  async delete(key: KvKey): Promise<void> {
    this.#delete.run(encodeKey(key));
  }

  /**
   * Sets newValue only if the current value deep-equals expectedValue (undefined: the key is
   * missing or expired). Setting undefined deletes the key.
   */
  async cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    const encoded = encodeKey(key);
    const expected = expectedValue === undefined ? undefined : normalize(expectedValue);
    const swap = this.#sqlite.transaction((): boolean => {
      const row = this.#select.get(encoded);
      const current =
        row === undefined || isExpired(row, this.#now()) ? undefined : JSON.parse(row.value);
      if (!isDeepStrictEqual(current, expected)) return false;
      this.#write(encoded, newValue, options);
      return true;
    });
    return swap.immediate();
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    let rows: Row[];
    if (prefix === undefined || prefix.length === 0) {
      rows = this.#listAll.all();
    } else {
      const exact = encodeKey(prefix);
      const start = `${exact.slice(0, -1)},`;
      const end = `${exact.slice(0, -1)}-`;
      rows = this.#listRange.all(exact, start, end);
    }
    const now = this.#now();
    for (const row of rows) {
      if (isExpired(row, now)) continue;
      yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
    }
  }

  /** Deletes every expired entry; returns how many. */
  purgeExpired(): number {
    return this.#purge.run(this.#now()).changes;
  }

  /** Stops the background purge. The database itself belongs to the caller. */
  close(): void {
    if (this.#purgeTimer) clearInterval(this.#purgeTimer);
  }

  #write(encodedKey: string, value: unknown, options: KvStoreSetOptions | undefined): void {
    if (value === undefined) {
      this.#delete.run(encodedKey);
      return;
    }
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError('The value cannot be stored as JSON.');
    const expiresAt = options?.ttl === undefined ? null : this.#now() + durationToMs(options.ttl);
    this.#upsert.run(encodedKey, json, expiresAt);
  }

  #purgeSafely(): void {
    if (!this.#sqlite.open) return;
    try {
      const purged = this.purgeExpired();
      if (purged > 0) logger.debug('Purged {purged} expired federation cache entries', { purged });
    } catch (error) {
      logger.warn('Could not purge expired federation cache entries: {error}', { error });
    }
  }
}

function encodeKey(key: KvKey): string {
  return JSON.stringify(key);
}

function isExpired(row: Row, now: number): boolean {
  return row.expires_at !== null && row.expires_at <= now;
}

/** What a value looks like after a round trip through JSON (what get would return). */
function normalize(value: unknown): unknown {
  const json = JSON.stringify(value);
  return json === undefined ? undefined : JSON.parse(json);
}
