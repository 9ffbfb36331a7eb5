import type { Database } from '../db/database.ts';
import { NO_CONVERSATION, type ConversationCounts } from '../../contract/conversation.ts';
import { withIdList } from '../db/id-list.ts';
import { createReadCache } from '../db/read-cache.ts';
import { blockedEitherWaySql, commentReadableSql } from '../visibility/policy.ts';
import type { EntryRef } from './repository.ts';

/**
 * A cheer (`c`) the viewer may see: not by someone the viewer (@userId, whose actor is @actorId)
 * blocked or who blocked them (docs/social.md, "Blocks").
 */
const READABLE = `NOT ${blockedEitherWaySql('@userId', '@actorId', 'c.actor_id')}`;

/**
 * A comment (`c`) the viewer reads (docs/social.md, "Who reads a reply"): the one rule of
 * src/visibility/policy.ts. The thread, the counts and the notifications ask it, so a count is
 * what the thread shows. Counted only when not deleted (a tombstone is no comment).
 */
const COMMENT_READABLE = commentReadableSql('@userId', '@actorId', 'c');

/**
 * The cheer and comment counts of entries as one user sees them, part of the conversation
 * repository (src/conversation/repository.ts spreads them into it). The counts of a whole page
 * of entries are one statement, a range of cheers_*_actor_unique and comments_*_idx per entry,
 * kept until the database changes (any write, a cheer or a comment among them, forgets them).
 */
export function createCountStatements(db: Database) {
  // The viewer's actor is looked up, never made: a user who never acted has cheered nothing
  // (and nobody can have blocked them).
  const statement = (col: string) =>
    db.prepare(
      withIdList(
        (ids) => `SELECT e.value AS id,
         (SELECT count(*) FROM cheers c WHERE c.${col} = e.value AND ${READABLE}) AS cheer_count,
         CASE WHEN EXISTS (SELECT 1 FROM cheers WHERE ${col} = e.value AND actor_id = @actorId)
           THEN 1 ELSE 0 END AS cheered_by_me,
         (SELECT count(*) FROM comments c WHERE c.${col} = e.value AND c.deleted_at IS NULL
           AND ${COMMENT_READABLE}) AS comment_count
       FROM ${ids('@ids')} e`,
      ),
    );
  const counts = { local: statement('beverage_id'), remote: statement('remote_entry_id') };
  const actorOfUser = db.prepare('SELECT id FROM actors WHERE user_id = ?').pluck();
  // A page asked again (the dashboard's) asks the database nothing, as its ids and JSON do not
  // (docs/performance.md, "Reading entries fast"): kept until the database changes.
  const pages = createReadCache<string, Map<number, ConversationCounts>>(db, {
    maxEntries: 500,
  });

  async function countsOf(
    kind: EntryRef['kind'],
    ids: readonly number[],
    userId: number,
  ): Promise<Map<number, ConversationCounts>> {
    if (ids.length === 0) return new Map();
    const key = `${kind}:${userId}:${ids.join(',')}`;
    return (await pages.get(key, () => readCounts(kind, ids, userId)))!;
  }

  async function readCounts(
    kind: EntryRef['kind'],
    ids: readonly number[],
    userId: number,
  ): Promise<Map<number, ConversationCounts>> {
    const found = new Map<number, ConversationCounts>();
    const actorId = ((await actorOfUser.get(userId)) as number | undefined) ?? 0;
    const rows = (await counts[kind].all({ ids: JSON.stringify(ids), actorId, userId })) as Record<
      string,
      number
    >[];
    for (const row of rows) {
      found.set(row.id!, {
        cheerCount: row.cheer_count!,
        cheeredByMe: row.cheered_by_me === 1,
        commentCount: row.comment_count!,
      });
    }
    return found;
  }

  return {
    /**
     * The counts of entries of one kind as the user sees them (`cheeredByMe`), by entry id: one
     * statement for the whole list.
     */
    countsOf,

    /** One entry's counts as the user sees them. */
    async counts(entry: EntryRef, userId: number): Promise<ConversationCounts> {
      return (await countsOf(entry.kind, [entry.id], userId)).get(entry.id) ?? NO_CONVERSATION;
    },
  };
}
