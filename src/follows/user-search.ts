import type BetterSqlite from 'better-sqlite3';
import type { Database } from '../db/database.ts';
import { otherProcessWrites } from '../db/read-cache.ts';
import { fold } from '../beverages/search-index.ts';
import type { PersonSummary } from './follow-rows.ts';

/** A user as the search holds them. */
type Indexed = [id: number, username: string, fullName: string, avatarPath: string | null];

/**
 * Counts this connection's changes to what the search shows of users, with TEMP triggers: they
 * live in the connection (no migration, nothing stored) and roll back with their transaction.
 */
const VERSIONING = `
  CREATE TEMP TABLE IF NOT EXISTS user_search_version (v INTEGER NOT NULL);
  INSERT INTO temp.user_search_version (v)
    SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.user_search_version);
  CREATE TEMP TRIGGER IF NOT EXISTS user_search_insert AFTER INSERT ON main.users
    BEGIN UPDATE temp.user_search_version SET v = v + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS user_search_delete AFTER DELETE ON main.users
    BEGIN UPDATE temp.user_search_version SET v = v + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS user_search_update
    AFTER UPDATE OF username, full_name, avatar_path ON main.users
    BEGIN UPDATE temp.user_search_version SET v = v + 1; END;`;

/**
 * Finds local users by username and full name, in any case and with or without accents
 * (SQLite's `lower()` and `LIKE` fold ASCII only, so the folding is done here: NFD, combining
 * marks removed, lower case). The users and their folded names are kept in memory and read
 * again only when a user was added, removed, renamed or given another avatar: by this process
 * (seen by the triggers above) or by another one such as the CLI (seen within 250 ms). Other
 * writes (sessions, entries) leave the index alone. A search is then one substring test per
 * user, well under a millisecond for 10,000; a rebuild folds only new or renamed names.
 * Strong matches (the username or a word of the name starting with the search) come first,
 * then the others, each in username order.
 */
export function createUserSearch(
  db: Database,
  /**
   * The SQLite connection `db` runs on, for the TEMP table and triggers only (set up here);
   * null on PostgreSQL, where any write (seen through `db.changes`) makes the index be read
   * again.
   */
  sqlite: BetterSqlite.Database | null,
) {
  if (sqlite) sqlite.exec(VERSIONING);
  const versionRow = sqlite
    ? db.prepare('SELECT v FROM temp.user_search_version').pluck<number>()
    : undefined;
  const version = { get: async () => versionRow?.get() ?? db.changes.current() };
  const others = otherProcessWrites(db);
  const all = db.prepare<{
    id: number;
    username: string;
    full_name: string;
    avatar_path: string | null;
  }>('SELECT id, username, full_name, avatar_path FROM users ORDER BY username');
  let built: { stamp: string; users: Indexed[]; texts: string[] } | undefined;
  /** The folded text of each user by id, with the names it was folded from. */
  let memo = new Map<number, { username: string; fullName: string; text: string }>();

  async function index() {
    const stamp = `${await version.get()}:${others()}`;
    if (built?.stamp === stamp) return built;
    const users = (await all.all()).map((row): Indexed => [
      row.id,
      row.username,
      row.full_name,
      row.avatar_path,
    ]);
    const next = new Map<number, { username: string; fullName: string; text: string }>();
    const texts = users.map(([id, username, fullName]) => {
      let known = memo.get(id);
      if (!known || known.username !== username || known.fullName !== fullName) {
        known = { username, fullName, text: `${fold(username)}\u0001${fold(fullName)}` };
      }
      next.set(id, known);
      return known.text;
    });
    memo = next;
    built = { stamp, users, texts };
    return built;
  }

  return {
    /** Users whose username or full name contains `query` (already trimmed), but `excluded`. */
    async search(
      query: string,
      excluded: ReadonlySet<number>,
      limit: number,
    ): Promise<PersonSummary[]> {
      const needle = fold(query);
      const { users, texts } = await index();
      const strong: Indexed[] = [];
      const weak: Indexed[] = [];
      for (let i = 0; i < texts.length && strong.length < limit; i++) {
        const text = texts[i]!;
        const at = text.indexOf(needle);
        if (at < 0 || excluded.has(users[i]![0])) continue;
        const atWordStart =
          at === 0 || text.includes(`\u0001${needle}`) || text.includes(` ${needle}`);
        if (atWordStart) strong.push(users[i]!);
        else if (weak.length < limit) weak.push(users[i]!);
      }
      return [...strong, ...weak]
        .slice(0, limit)
        .map(([id, username, fullName, avatarPath]) => ({ id, username, fullName, avatarPath }));
    },
  };
}

export type UserSearch = ReturnType<typeof createUserSearch>;
