import type { Database, Statement } from '../db/database.ts';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from '../../contract/enums.ts';
import type { ShareUser } from '../../contract/beverages.ts';
import { createReadCache } from '../db/read-cache.ts';
import { windowKey, windowSql } from '../beverages/drink-window.ts';
import { blockedBetweenUsersSql } from '../visibility/policy.ts';
import { withIdList } from '../db/id-list.ts';
import type { WindowFilter } from '../beverages/repository.ts';
import type {
  BeverageRow,
  BeverageStatus,
  BeverageType,
  ShareRow,
  ShareState,
  Visibility,
} from '../db/schema/index.ts';

/** An entry shared with a user who added it to their vault, with what that user chose. */
export interface AcceptedEntry {
  row: BeverageRow;
  /** How many tastings the entry has. */
  tastingCount: number;
  ownerName: string;
  share: { id: number; listStatus: BeverageStatus; acceptedAt: number };
}

export interface AcceptedFilter {
  recipientId: number;
  type?: BeverageType | undefined;
  /** The list the recipient put the entry in. */
  status?: BeverageStatus | undefined;
  /** The owner's cellar flag. */
  inCellar?: boolean | undefined;
  /** The entry's drinking window (src/beverages/drink-window.ts). */
  window?: WindowFilter | undefined;
  /** Keyset paging: only shares accepted before this position (acceptedAt, entry id). */
  before?: { at: number; id: number } | undefined;
  /** Without: every match (search filters them afterwards). */
  limit?: number | undefined;
  /**
   * Entries (of the recipient's own) whose recipients to read in the same query, for their
   * `sharedWith`: a list then costs one extra query, not two.
   */
  recipientsOf?: number[] | undefined;
}

/**
 * The recipients' columns, padded to the width of an accepted entry's (a UNION ALL), each under
 * a column of the same type (PostgreSQL matches a compound's columns by type): the entry id
 * under share_id, the user id under accepted_at, the share id under b.id, the username, full
 * name and state under b.type, b.name and b.subtype. `RECIPIENT_AT` reads them back.
 */
const RECIPIENT_COLUMNS = `s.beverage_id, NULL, u.id, s.id, NULL, u.username, u.full_name, s.state${', NULL'.repeat(14)}`;
const RECIPIENT_AT = [0, 2, 5, 6, 3, 7];

/**
 * A share neither side of which blocked the other (`s` the share, `b` its entry): a block
 * suspends the shares between the two, both ways, and lifting it brings them back.
 */
const LIVE_SHARE = `NOT ${blockedBetweenUsersSql('s.recipient_id', 'b.user_id')}`;

/**
 * The recipients of entries (a JSON array of ids, bound), as the entries' `sharedWith`; `ids`
 * is the list's subquery (src/beverages/id-list.ts).
 */
const recipientsOfSql = (ids: (param: string) => string) => `FROM shares s
  JOIN users u ON u.id = s.recipient_id JOIN beverages b ON b.id = s.beverage_id
  WHERE s.beverage_id IN ${ids('?')} AND ${LIVE_SHARE}`;

const TYPES = new Set<string>(BEVERAGE_TYPES);
const STATUSES = new Set<string>(BEVERAGE_STATUSES);
const CACHED = 200;
const ENTRY_COLUMNS = `b.id, b.user_id, b.type, b.name, b.subtype, b.maker_name, b.rating, b.notes,
  b.status, b.in_cellar, b.photo_path, b.created_at, b.updated_at, b.visibility, b.federated, b.drink_from, b.drink_until,
  (select count(*) from tastings t where t.beverage_id = b.id) AS tasting_count`;
/** A shared entry's columns: the share's, the entry's, its owner's name. */
const ACCEPTED_COLUMNS = `s.id AS share_id, s.list_status, s.accepted_at, ${ENTRY_COLUMNS},
  u.full_name AS owner_name`;

type Raw = Record<string, unknown>;

/**
 * A row's values in the order of its columns, which the readers below take by position. The
 * statements give every column a name of its own (none a number), so no two share a key and
 * the keys keep the columns' order.
 */
function inOrder(row: Raw): unknown[] {
  return Object.values(row);
}

function toShare(r: Raw): ShareRow {
  return {
    id: r.id as number,
    beverageId: r.beverage_id as number,
    recipientId: r.recipient_id as number,
    sharedById: r.shared_by_id as number,
    state: r.state as ShareState,
    listStatus: r.list_status as BeverageStatus | null,
    message: r.message as string | null,
    createdAt: new Date(r.created_at as number),
    acceptedAt: r.accepted_at === null ? null : new Date(r.accepted_at as number),
  };
}

function toAccepted(r: unknown[]): AcceptedEntry {
  return {
    share: { id: r[0] as number, listStatus: r[1] as BeverageStatus, acceptedAt: r[2] as number },
    row: {
      id: r[3] as number,
      userId: r[4] as number,
      type: r[5] as BeverageType,
      name: r[6] as string,
      subtype: r[7] as string,
      makerName: r[8] as string,
      rating: r[9] as number,
      notes: r[10] as string,
      status: r[11] as BeverageStatus,
      inCellar: r[12] === 1,
      photoPath: r[13] as string | null,
      createdAt: new Date(r[14] as number),
      updatedAt: new Date(r[15] as number),
      visibility: r[16] as Visibility,
      federated: r[17] === 1,
      drinkFrom: r[18] as number | null,
      drinkUntil: r[19] as number | null,
    },
    tastingCount: r[20] as number,
    ownerName: r[21] as string,
  };
}

/** Recipient rows (entry id, user id, username, full name, share id, state) by entry. */
function groupRecipients(rows: unknown[][]): Map<number, ShareUser[]> {
  const byEntry = new Map<number, ShareUser[]>();
  for (const r of rows.sort((a, b) => (a[4] as number) - (b[4] as number))) {
    const user: ShareUser = {
      id: r[1] as number,
      username: r[2] as string,
      fullName: r[3] as string,
      shareId: r[4] as number,
      status: r[5] as ShareUser['status'],
    };
    const list = byEntry.get(r[0] as number);
    if (list) list.push(user);
    else byEntry.set(r[0] as number, [user]);
  }
  return byEntry;
}

/**
 * Data access for shares: the only code that writes `shares` (the visibility lookups and the
 * export read it). The recipient's list query reads
 * the shared entries with it (one indexed query per list page, src/beverages/entry-lists.ts).
 */
export function createShareRepository(db: Database) {
  const byId = db.prepare<Raw>('SELECT * FROM shares WHERE id = ?');
  const byPair = db.prepare<Raw>('SELECT * FROM shares WHERE beverage_id = ? AND recipient_id = ?');
  const insertOne = db.prepare<Raw>(
    `INSERT INTO shares (beverage_id, recipient_id, shared_by_id, state, message, created_at)
     VALUES (?, ?, ?, 'PENDING', ?, ?) RETURNING *`,
  );
  const acceptOne = db.prepare<Raw>(
    `UPDATE shares SET state = 'ACCEPTED', list_status = ?, accepted_at = ?
     WHERE id = ? AND state = 'PENDING' RETURNING *`,
  );
  const deleteOne = db.prepare('DELETE FROM shares WHERE id = ?');
  const recipients = db.prepare<Raw>(
    withIdList(
      (ids) => `SELECT s.beverage_id AS entry_id, u.id AS user_id, u.username, u.full_name,
            s.id AS share_id, s.state ${recipientsOfSql(ids)}`,
    ),
  );
  const acceptedOne = db.prepare<Raw>(
    `SELECT ${ACCEPTED_COLUMNS}
       FROM shares s JOIN beverages b ON b.id = s.beverage_id JOIN users u ON u.id = b.user_id
      WHERE s.beverage_id = ? AND s.recipient_id = ? AND s.state = 'ACCEPTED' AND ${LIVE_SHARE}`,
  );
  // Whether a user has entries shared with them (accepted) and entries of theirs shared with
  // anyone: memoized until the database changes, so lists of users without shares cost no query.
  // The second walks the shares (not the owner's entries): a vault has few next to its entries.
  const involvement = db.prepare<{ incoming: number; outgoing: number }>(
    `SELECT CASE WHEN EXISTS (SELECT 1 FROM shares WHERE recipient_id = ? AND state = 'ACCEPTED')
              THEN 1 ELSE 0 END AS incoming,
            CASE WHEN EXISTS (SELECT 1 FROM shares s
                     WHERE (SELECT user_id FROM beverages b WHERE b.id = s.beverage_id) = ?)
              THEN 1 ELSE 0 END AS outgoing`,
  );
  const involvements = createReadCache<number, { incoming: boolean; outgoing: boolean }>(db);
  const acceptedLists = new Map<string, Statement<Raw>>();

  /**
   * The shared entries of a recipient's list. As in src/beverages/list-statements.ts, the
   * recipient and filters are validated literals (STAT4 recompiles a statement whose indexed
   * values are bound again); only the cursor is bound.
   */
  function acceptedList(filter: AcceptedFilter): Statement<Raw> {
    if (!Number.isSafeInteger(filter.recipientId)) throw new TypeError('recipientId');
    if (filter.type && !TYPES.has(filter.type)) throw new TypeError('unknown type');
    if (filter.status && !STATUSES.has(filter.status)) throw new TypeError('unknown status');
    if (filter.limit !== undefined && !(Number.isSafeInteger(filter.limit) && filter.limit > 0)) {
      throw new TypeError('limit must be a positive integer');
    }
    const key = [
      filter.recipientId,
      filter.type ?? '',
      filter.status ?? '',
      filter.inCellar === undefined ? '' : Number(filter.inCellar),
      windowKey(filter.window),
      filter.before ? 'b' : '',
      filter.limit ?? '',
      filter.recipientsOf ? 'r' : '',
    ].join(':');
    let statement = acceptedLists.get(key);
    if (statement) {
      acceptedLists.delete(key);
    } else {
      const where = [`s.recipient_id = ${filter.recipientId}`, `s.state = 'ACCEPTED'`, LIVE_SHARE];
      if (filter.status) where.push(`s.list_status = '${filter.status}'`);
      if (filter.type) where.push(`b.type = '${filter.type}'`);
      if (filter.inCellar !== undefined) where.push(`b.in_cellar = ${filter.inCellar ? 1 : 0}`);
      if (filter.window) where.push(windowSql(filter.window.kind, filter.window.year, 'b.'));
      if (filter.before) where.push('(s.accepted_at, s.beverage_id) < (?, ?)');
      const accepted = `SELECT 0 AS kind, ${ACCEPTED_COLUMNS}
          FROM shares s JOIN beverages b ON b.id = s.beverage_id
          JOIN users u ON u.id = b.user_id
         WHERE ${where.join(' AND ')}
         ORDER BY s.accepted_at DESC, s.beverage_id DESC
         ${filter.limit === undefined ? '' : `LIMIT ${filter.limit}`}`;
      statement = db.prepare<Raw>(
        filter.recipientsOf
          ? withIdList(
              (ids) => `SELECT * FROM (${accepted}) AS accepted
                UNION ALL SELECT 1, ${RECIPIENT_COLUMNS} ${recipientsOfSql(ids)}`,
            )
          : accepted,
      );
      if (acceptedLists.size >= CACHED) acceptedLists.delete(acceptedLists.keys().next().value!);
    }
    acceptedLists.set(key, statement);
    return statement;
  }

  return {
    async findById(id: number): Promise<ShareRow | undefined> {
      const row = await byId.get(id);
      return row && toShare(row);
    },

    async find(entryId: number, recipientId: number): Promise<ShareRow | undefined> {
      const row = await byPair.get(entryId, recipientId);
      return row && toShare(row);
    },

    async isRecipient(entryId: number, userId: number): Promise<boolean> {
      return (await byPair.get(entryId, userId)) !== undefined;
    },

    async insert(values: {
      beverageId: number;
      recipientId: number;
      sharedById: number;
      message: string | null;
      createdAt: number;
    }): Promise<ShareRow> {
      const { beverageId, recipientId, sharedById, message, createdAt } = values;
      return toShare(
        (await insertOne.get(beverageId, recipientId, sharedById, message, createdAt))!,
      );
    },

    /** PENDING → ACCEPTED; undefined when the share is not pending (any more). */
    async accept(
      id: number,
      listStatus: BeverageStatus,
      acceptedAt: number,
    ): Promise<ShareRow | undefined> {
      const row = await acceptOne.get(listStatus, acceptedAt, id);
      return row && toShare(row);
    },

    async delete(id: number): Promise<boolean> {
      return (await deleteOne.run(id)).changes > 0;
    },

    /** Whom each of these entries is shared with (one query for them all). */
    async recipientsOf(entryIds: number[]): Promise<Map<number, ShareUser[]>> {
      if (entryIds.length === 0) return new Map();
      return groupRecipients((await recipients.all(JSON.stringify(entryIds))).map(inOrder));
    },

    /** Whether the user has accepted shared entries / entries of theirs shared with anyone. */
    async involvementOf(userId: number): Promise<{ incoming: boolean; outgoing: boolean }> {
      return (await involvements.get(userId, async (id) => {
        const { incoming, outgoing } = (await involvement.get(id, id))!;
        return { incoming: incoming === 1, outgoing: outgoing === 1 };
      }))!;
    },

    /**
     * A recipient's accepted shared entries, newest acceptance first, and, when asked, whom
     * other entries are shared with (`filter.recipientsOf`), in one query.
     */
    async acceptedEntries(filter: AcceptedFilter): Promise<{
      accepted: AcceptedEntry[];
      recipients: Map<number, ShareUser[]>;
    }> {
      const statement = acceptedList(filter);
      const params: unknown[] = filter.before ? [filter.before.at, filter.before.id] : [];
      if (filter.recipientsOf) params.push(JSON.stringify(filter.recipientsOf));
      const rows = (await statement.all(...params)).map(inOrder);
      const accepted = rows.filter((r) => r[0] === 0).map((r) => toAccepted(r.slice(1)));
      // A compound query promises no order: put the entries back in the list's.
      if (filter.recipientsOf) {
        accepted.sort((a, b) => b.share.acceptedAt - a.share.acceptedAt || b.row.id - a.row.id);
      }
      const recipientRows = rows
        .filter((r) => r[0] === 1)
        .map((r) => RECIPIENT_AT.map((at) => r[at + 1]));
      return { accepted, recipients: groupRecipients(recipientRows) };
    },

    /** The entry as the recipient has it in their vault, if they accepted its share. */
    async acceptedEntry(entryId: number, recipientId: number): Promise<AcceptedEntry | undefined> {
      const row = await acceptedOne.get(entryId, recipientId);
      return row && toAccepted(inOrder(row));
    },
  };
}

export type ShareRepository = ReturnType<typeof createShareRepository>;
