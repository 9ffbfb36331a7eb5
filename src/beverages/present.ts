import type { Beverage } from '../../contract/beverages.ts';
import { NO_CONVERSATION, type ConversationCounts } from '../../contract/conversation.ts';
import { isListed, type PageEntry } from './entry-lists.ts';
import { ownerFields, publicFields, type ViewerFields } from './entry-fields.ts';
import type { EntryView, ListedEntry } from './repository.ts';

/** The Beverage entry, as the API returns it (contract/beverages.ts). */
export type BeverageDto = Beverage;

/**
 * An entry as `viewerId` gets it: the owner-only fields for its owner alone (the visibility
 * policy already decided that the viewer may see the entry), and its conversation's counts as
 * the viewer has them (src/conversation/).
 */
export function presentBeverage(
  entry: EntryView,
  viewerId: number,
  counts: ConversationCounts,
): BeverageDto {
  const isOwner = entry.userId === viewerId;
  return {
    ...publicFields(entry),
    status: entry.shared?.listStatus ?? entry.status,
    ...(isOwner && ownerFields(entry)),
    cheerCount: counts.cheerCount,
    cheeredByMe: counts.cheeredByMe,
    commentCount: counts.commentCount,
    isOwner,
    ownerName: entry.ownerName,
    sharedWithCurrentUser: entry.shared !== undefined,
    sharedWith: entry.sharedWith ?? [],
  };
}

/** A listed entry's viewer fields, as the JSON members that close its object (from the comma to the brace). */
function viewerMembers(entry: ListedEntry, viewerId: number): string {
  const fields: Pick<Beverage, ViewerFields> = {
    isOwner: entry.userId === viewerId,
    ownerName: entry.ownerName,
    // Listed entries are the listed user's own; shared ones are EntryViews.
    sharedWithCurrentUser: false,
    sharedWith: entry.sharedWith ?? [],
  };
  return `,${JSON.stringify(fields).slice(1)}`;
}

/** An entry's conversation counts as the JSON members that go inside its object. */
function countMembers(counts: ConversationCounts): string {
  return `,"cheerCount":${counts.cheerCount},"cheeredByMe":${counts.cheeredByMe},"commentCount":${counts.commentCount}`;
}

/**
 * GET /api/beverages's answer (the contract's BeveragePage) as JSON text. A listed entry's
 * cached JSON (src/beverages/entry-json.ts) is its public fields; the owner's answer adds the
 * owner-only members, kept apart, everyone's the entry's conversation counts (`counts`, read
 * for the page in one statement: they change and are the viewer's, so never cached) and the
 * viewer's fields (the same for every entry of a page unless it carries `sharedWith`, so
 * computed once). Equal, field for field, to presentBeverage of the same entry
 * (test/api/entry-json.test.ts).
 */
export function presentPageJson(
  entries: PageEntry[],
  viewerId: number,
  nextCursor: string | null,
  counts: ReadonlyMap<number, ConversationCounts>,
): string {
  let common: { ownerName: string; userId: number; members: string } | undefined;
  const items = entries.map((entry) => {
    const conversation = counts.get(entry.id) ?? NO_CONVERSATION;
    if (!isListed(entry)) return JSON.stringify(presentBeverage(entry, viewerId, conversation));
    let members: string;
    if (entry.sharedWith?.length) {
      members = viewerMembers(entry, viewerId);
    } else {
      if (common?.ownerName !== entry.ownerName || common.userId !== entry.userId) {
        const { ownerName, userId } = entry;
        common = { ownerName, userId, members: viewerMembers(entry, viewerId) };
      }
      members = common.members;
    }
    const { publicJson, ownerMembers } = entry.json;
    const owner = entry.userId === viewerId ? ownerMembers : '';
    return publicJson.slice(0, -1) + owner + countMembers(conversation) + members;
  });
  return `{"beverages":[${items.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
}
