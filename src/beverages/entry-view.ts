import type { Beverage } from '../../contract/beverages.ts';
import { NO_CONVERSATION, type ConversationCounts } from '../../contract/conversation.ts';
import type { RemoteEntry } from '../../contract/social.ts';
import type { Role } from '../db/schema/index.ts';
import type { RemoteEntryRecord } from '../remote-entries/repository.ts';
import type { PageEntry } from './entry-lists.ts';
import { presentBeverage, presentPageJson } from './present.ts';
import type { EntryView } from './repository.ts';

interface Viewer {
  id: number;
  role: Role;
}

/** Which kind of entry a batch holds: the vault's own, or received from a remote vault. */
type EntryKind = 'local' | 'remote';

/**
 * Where the views read the conversation's counts (src/conversation/service.ts): those of a
 * batch of entries of one kind, as the viewer sees them, in one statement.
 */
export interface ConversationCountsReader {
  countsOf(
    viewer: Viewer,
    kind: EntryKind,
    ids: readonly number[],
  ): Promise<ReadonlyMap<number, ConversationCounts>>;
}

/** A received entry as the feed shows it: plain fields, the vault's own photo copy. */
function presentRemoteEntry(entry: RemoteEntryRecord, counts: ConversationCounts): RemoteEntry {
  return {
    id: entry.id,
    type: entry.type,
    name: entry.name,
    subtype: entry.subtype,
    makerName: entry.makerName,
    rating: entry.rating,
    notes: entry.notes,
    status: entry.status,
    tasting: entry.tasting,
    photoPath: entry.photoPath,
    noteUri: entry.noteUri,
    createdAt: entry.publishedAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
    cheerCount: counts.cheerCount,
    cheeredByMe: counts.cheeredByMe,
    commentCount: counts.commentCount,
  };
}

/**
 * The entries a client gets (contract/beverages.ts Beverage, contract/social.ts RemoteEntry):
 * every route that answers with entries has them made here. Batch-first: a batch costs one
 * statement of conversation counts for each kind of entry it holds, however many entries it
 * holds (a page, a feed page, the one entry of an answer alike). The rest comes with the rows
 * the entry readers return: the owner-only fields, the bottle count among them (read in the
 * same statement as the rows, src/beverages/repository.ts and list-statements.ts), kept for the
 * owner alone by src/beverages/present.ts; and whom an entry is shared with.
 */
export function createEntryViews(conversation: ConversationCountsReader) {
  function countsOf(viewer: Viewer, kind: EntryKind, entries: readonly { id: number }[]) {
    return conversation.countsOf(
      viewer,
      kind,
      entries.map((entry) => entry.id),
    );
  }

  /** The vault's own entries as the viewer gets them, in their order. */
  async function entries(viewer: Viewer, batch: readonly EntryView[]): Promise<Beverage[]> {
    const counts = await countsOf(viewer, 'local', batch);
    return batch.map((entry) =>
      presentBeverage(entry, viewer.id, counts.get(entry.id) ?? NO_CONVERSATION),
    );
  }

  return {
    entries,

    /** One entry as the viewer gets it (an answer about it). */
    async entry(viewer: Viewer, entry: EntryView): Promise<Beverage> {
      return (await entries(viewer, [entry]))[0]!;
    },

    /**
     * An entry the viewer has just made (logged, or cloned into their vault): nobody can have
     * cheered or commented it yet, so no counts are read.
     */
    created(viewer: Viewer, entry: EntryView): Beverage {
      return presentBeverage(entry, viewer.id, NO_CONVERSATION);
    },

    /** Entries received from remote vaults as the viewer gets them, in their order. */
    async remoteEntries(
      viewer: Viewer,
      batch: readonly RemoteEntryRecord[],
    ): Promise<RemoteEntry[]> {
      const counts = await countsOf(viewer, 'remote', batch);
      return batch.map((entry) =>
        presentRemoteEntry(entry, counts.get(entry.id) ?? NO_CONVERSATION),
      );
    },

    /**
     * A page of the viewer's list (GET /api/beverages's BeveragePage) as JSON text, made from
     * the entries' cached JSON (src/beverages/present.ts, presentPageJson).
     */
    async pageJson(
      viewer: Viewer,
      page: { entries: PageEntry[]; nextCursor: string | null },
    ): Promise<string> {
      const counts = await countsOf(viewer, 'local', page.entries);
      return presentPageJson(page.entries, viewer.id, page.nextCursor, counts);
    },
  };
}

export type EntryViews = ReturnType<typeof createEntryViews>;
