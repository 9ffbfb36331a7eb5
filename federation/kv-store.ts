import { isDeepStrictEqual } from 'node:util';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import type { Database, RunResult, Statement } from '../src/db/database.ts';
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
 * app's database, table federation_kv. The key is the JSON of the key array, the value is
 * JSON. An entry whose TTL has passed is treated as missing at once and deleted lazily (when
 * read) and periodically (purgeExpired, on a timer).
 *
 * A read-compare-write (cas) runs in one transaction, and its write only succeeds while the row
 * is still what it read (a conditional UPDATE or DELETE, an INSERT that does nothing when the
 * key has come meanwhile): no other call, of this process or of another connection to the
 * same database, can slip a write in between its read and its write. (On SQLite the IMMEDIATE
 * transaction alone ensures it; on PostgreSQL, set and delete run outside any transaction.)
 */
export class SqliteKvStore implements KvStore {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #purgeTimer: NodeJS.Timeout | undefined;
  readonly #select: Statement<Row>;
  readonly #upsert: Statement;
  readonly #delete: Statement;
  readonly #deleteIfExpired: Statement;
  readonly #insertIfMissing: Statement;
  readonly #updateIfSame: Statement;
  readonly #deleteIfSame: Statement;
  readonly #purge: Statement;
  readonly #listAll: Statement<Row>;
  readonly #listRange: Statement<Row>;
  #closed = false;

  constructor(db: Database, options: SqliteKvStoreOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#select = db.prepare<Row>(
      'SELECT key, value, expires_at FROM federation_kv WHERE key = ?',
    );
    this.#upsert = db.prepare(
      `INSERT INTO federation_kv (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    );
    this.#delete = db.prepare('DELETE FROM federation_kv WHERE key = ?');
    this.#deleteIfExpired = db.prepare(
      'DELETE FROM federation_kv WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?',
    );
    // cas's writes, given the row it read: each changes nothing if another call wrote first.
    this.#insertIfMissing = db.prepare(
      `INSERT INTO federation_kv (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO NOTHING`,
    );
    this.#updateIfSame = db.prepare(
      `UPDATE federation_kv SET value = ?, expires_at = ?
       WHERE key = ? AND value = ? AND expires_at IS NOT DISTINCT FROM ?`,
    );
    this.#deleteIfSame = db.prepare(
      `DELETE FROM federation_kv
       WHERE key = ? AND value = ? AND expires_at IS NOT DISTINCT FROM ?`,
    );
    this.#purge = db.prepare(
      'DELETE FROM federation_kv WHERE expires_at IS NOT NULL AND expires_at <= ?',
    );
    // Keys compare by their bytes (SQLite's BINARY, PostgreSQL's "C" collation), whatever
    // the collation PostgreSQL's database was made with.
    this.#listAll = db.prepare<Row>({
      sqlite: 'SELECT key, value, expires_at FROM federation_kv ORDER BY key',
      postgres: 'SELECT key, value, expires_at FROM federation_kv ORDER BY key COLLATE "C"',
    });
    // Keys are JSON arrays: the entries under ["a","b"] are ["a","b"] itself and every key
    // starting with '["a","b",'. That is a range of the primary key (',' + 1 is '-'), which
    // the index serves, and which no character in a key part can escape (unlike LIKE).
    this.#listRange = db.prepare<Row>({
      sqlite: `SELECT key, value, expires_at FROM federation_kv
               WHERE key = ? OR (key >= ? AND key < ?) ORDER BY key`,
      postgres: `SELECT key, value, expires_at FROM federation_kv
                 WHERE key = ? OR (key COLLATE "C" >= ? AND key COLLATE "C" < ?)
                 ORDER BY key COLLATE "C"`,
    });
    const purgeIntervalMs = options.purgeIntervalMs ?? 10 * 60_000;
    if (purgeIntervalMs > 0) {
      this.#purgeTimer = setInterval(() => void this.#purgeSafely(), purgeIntervalMs);
      this.#purgeTimer.unref();
    }
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const encoded = encodeKey(key);
    const row = await this.#select.get(encoded);
    if (row === undefined) return undefined;
    const now = this.#now();
    if (isExpired(row, now)) {
      await this.#deleteIfExpired.run(encoded, now);
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await this.#write(encodeKey(key), value, options);
  }

  async delete(key: KvKey): Promise<void> {
    await this.#delete.run(encodeKey(key));
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
    return this.#db.transaction(async (): Promise<boolean> => {
      const row = await this.#select.get(encoded);
      const current: unknown =
        row === undefined || isExpired(row, this.#now()) ? undefined : JSON.parse(row.value);
      if (!isDeepStrictEqual(current, expected)) return false;
      const next = this.#encodeValue(newValue, options);
      let written: RunResult;
      if (row === undefined) {
        if (next === undefined) return true;
        written = await this.#insertIfMissing.run(encoded, next.json, next.expiresAt);
      } else if (next === undefined) {
        written = await this.#deleteIfSame.run(encoded, row.value, row.expires_at);
      } else {
        written = await this.#updateIfSame.run(
          next.json,
          next.expiresAt,
          encoded,
          row.value,
          row.expires_at,
        );
      }
      return written.changes === 1;
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    let rows: Row[];
    if (prefix === undefined || prefix.length === 0) {
      rows = await this.#listAll.all();
    } else {
      const exact = encodeKey(prefix);
      const start = `${exact.slice(0, -1)},`;
      const end = `${exact.slice(0, -1)}-`;
      rows = await this.#listRange.all(exact, start, end);
    }
    const now = this.#now();
    for (const row of rows) {
      if (isExpired(row, now)) continue;
      yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
    }
  }

  /** Deletes every expired entry; returns how many. */
  async purgeExpired(): Promise<number> {
    return (await this.#purge.run(this.#now())).changes;
  }

  /** Stops the background purge. The database itself belongs to the caller. */
  close(): void {
    this.#closed = true;
    if (this.#purgeTimer) clearInterval(this.#purgeTimer);
  }

  async #write(
    encodedKey: string,
    value: unknown,
    options: KvStoreSetOptions | undefined,
  ): Promise<void> {
    const next = this.#encodeValue(value, options);
    if (next === undefined) await this.#delete.run(encodedKey);
    else await this.#upsert.run(encodedKey, next.json, next.expiresAt);
  }

  /** A value as stored (undefined: none, the key is deleted) with its expiry. */
  #encodeValue(
    value: unknown,
    options: KvStoreSetOptions | undefined,
  ): { json: string; expiresAt: number | null } | undefined {
    if (value === undefined) return undefined;
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError('The value cannot be stored as JSON.');
    const expiresAt = options?.ttl === undefined ? null : this.#now() + durationToMs(options.ttl);
    return { json, expiresAt };
  }

  /** The timer's purge: never rejects (a failure is logged). */
  async #purgeSafely(): Promise<void> {
    if (this.#closed) return;
    try {
      const purged = await this.purgeExpired();
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
