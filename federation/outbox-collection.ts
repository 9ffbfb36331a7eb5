import type { RequestContext } from '@fedify/fedify';
import type { Activity } from '@fedify/vocab';
import type { CollectionSource } from './collections.ts';
import type { EntryAudience } from './entry-audience.ts';
import type { EntryNotes } from './entry-notes.ts';
import type { FederatedEntries } from './entry-rows.ts';
import { signedByFollower, type SignedLookups } from './note-dispatcher.ts';
import { createNoteActivity } from './note.ts';

/** Activities per outbox page. */
export const OUTBOX_PAGE_SIZE = 20;
const FIRST = 'first';
const CURSOR = /^[1-9][0-9]{0,14}$/;

/**
 * The outbox: a federated user's entries as the Create activities they were sent as (each with
 * the entry's current Note), newest first, in pages of 20 (`first`, then `next`), with
 * totalItems. A cursor is the id the next page starts below. The entries are followers-only
 * posts, so the pages list them only for a request signed by an actor of a server that holds a
 * current follower (or by this server), as for each Note: anyone else sees totalItems and empty
 * pages.
 */
export function createOutboxSource(deps: {
  origin: string;
  entries: Pick<FederatedEntries, 'pageOf' | 'countOf'>;
  audience: Pick<EntryAudience, 'hasFollowerOn'>;
  notes: EntryNotes;
  lookups: SignedLookups;
}): CollectionSource<Activity, RequestContext<void>> {
  const { entries, notes } = deps;
  return {
    count: (user) => entries.countOf(user.id),
    firstCursor: async () => FIRST,
    async page(user, cursor, ctx) {
      if (!ctx || !(await signedByFollower(ctx, deps, user.id))) return { items: [] };
      const before =
        cursor === FIRST || cursor === null
          ? Number.MAX_SAFE_INTEGER
          : CURSOR.test(cursor)
            ? Number(cursor)
            : 0;
      const rows = await entries.pageOf(user.id, before, OUTBOX_PAGE_SIZE + 1);
      const shown = rows.slice(0, OUTBOX_PAGE_SIZE);
      const items: Activity[] = [];
      for (const entry of shown) {
        items.push(createNoteActivity(await notes.input(entry, user)));
      }
      const next = rows.length > OUTBOX_PAGE_SIZE ? String(shown.at(-1)!.id) : null;
      return { items, nextCursor: next };
    },
  };
}
