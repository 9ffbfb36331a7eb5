import type { Database, Statement } from '../db/database.ts';
import { getTableColumns } from '../db/orm.ts';
import { createReadCache } from '../db/read-cache.ts';
import { optionalRow, rowReader, storedValue } from '../db/rows.ts';
import { users, type Role, type UserRow } from '../db/schema/index.ts';

type UserChanges = Partial<Omit<UserRow, 'id' | 'username' | 'createdAt'>>;

const readUser = rowReader(users);
const readOptionalUser = optionalRow(readUser);
const columns = getTableColumns(users);

/**
 * Data access for users: the only place that writes the users table. Other repositories read
 * it only to show a user's name or username beside their rows (docs/architecture.md, "Which
 * code queries which table").
 */
export function createUserRepository(db: Database) {
  // Read on every signed-in request: prepared once.
  const byId = db.prepare('SELECT * FROM users WHERE id = ?');
  const byUsername = db.prepare('SELECT * FROM users WHERE username = ?');
  const federatedByUsername = db.prepare(
    'SELECT * FROM users WHERE username = ? AND activitypub_enabled = 1',
  );
  const all = db.prepare('SELECT * FROM users ORDER BY username ASC');
  const countAll = db.prepare('SELECT count(*) FROM users').pluck<number>();
  const countFederated = db
    .prepare('SELECT count(*) FROM users WHERE activitypub_enabled = 1')
    .pluck<number>();
  const countAdmins = db.prepare("SELECT count(*) FROM users WHERE role = 'ADMIN'").pluck<number>();
  const insert = db.prepare(
    `INSERT INTO users (username, full_name, email, role, password_hash)
     VALUES (?, ?, ?, ?, ?) RETURNING *`,
  );
  const avatarPaths = db
    .prepare('SELECT avatar_path FROM users WHERE avatar_path is not null')
    .pluck<string>();
  // An update sets the columns it is given: one statement per set of columns, prepared once.
  const updates = new Map<string, Statement>();
  function updateOf(keys: string[]): Statement {
    const shape = keys.join(',');
    let statement = updates.get(shape);
    if (!statement) {
      const set = keys.map((key) => `${columns[key as keyof typeof columns].name} = ?`);
      statement = db.prepare(`UPDATE users SET ${set.join(', ')} WHERE id = ? RETURNING *`);
      updates.set(shape, statement);
    }
    return statement;
  }
  const cache = createReadCache<number, UserRow>(db);
  const readById = async (id: number) => readOptionalUser(await byId.get(id));
  return {
    /**
     * Memoized until the database changes (src/db/read-cache.ts): read on every request.
     */
    findById(id: number): Promise<UserRow | undefined> {
      return cache.get(id, readById);
    },
    /** findById's memoized answer at once, when it has one (src/db/read-cache.ts, `peek`). */
    peekById(id: number): { value: UserRow | undefined } | undefined {
      return cache.peek(id);
    },
    async findByUsername(username: string): Promise<UserRow | undefined> {
      return readOptionalUser(await byUsername.get(username));
    },
    /** A user visible to the fediverse: exists and has activityPubEnabled. */
    async findFederatedByUsername(username: string): Promise<UserRow | undefined> {
      return readOptionalUser(await federatedByUsername.get(username));
    },
    async list(): Promise<UserRow[]> {
      return (await all.all()).map(readUser);
    },
    async count(): Promise<number> {
      return (await countAll.get()) ?? 0;
    },
    async countFederated(): Promise<number> {
      return (await countFederated.get()) ?? 0;
    },
    async countAdmins(): Promise<number> {
      return (await countAdmins.get()) ?? 0;
    },
    async insert(values: {
      username: string;
      fullName: string;
      email: string;
      role: Role;
      passwordHash: string;
    }): Promise<UserRow> {
      const row = await insert.get(
        values.username,
        values.fullName,
        values.email,
        values.role,
        values.passwordHash,
      );
      return readUser(row);
    },
    /** Every stored avatar path, for the uploads sweep (src/media/sweep.ts). */
    allAvatarPaths(): Promise<string[]> {
      return avatarPaths.all();
    },
    async update(id: number, values: UserChanges): Promise<UserRow | undefined> {
      if (Object.keys(values).length === 0) return this.findById(id);
      // As drizzle did: a key given as undefined is not set.
      const keys = Object.keys(values).filter(
        (key) => values[key as keyof UserChanges] !== undefined,
      ) as (keyof UserChanges)[];
      if (keys.length === 0) throw new Error('No values to set');
      const params = keys.map((key) => storedValue(users, key, values[key]));
      return readOptionalUser(await updateOf(keys).get(...params, id));
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
