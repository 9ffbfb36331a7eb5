import type { Beverage, BeverageOwnerFields, OwnerOnlyField } from '../../contract/beverages.ts';
import type { ConversationCounts } from '../../contract/conversation.ts';
import type { BeverageRow } from '../db/schema/index.ts';

/** The Beverage fields that depend on the viewer: added by src/beverages/present.ts. */
export type ViewerFields = 'isOwner' | 'ownerName' | 'sharedWithCurrentUser' | 'sharedWith';

/**
 * The conversation's counts (contract/conversation.ts): they change with every cheer and
 * comment and `cheeredByMe` is the viewer's, so they are never cached with an entry's JSON but
 * read for each answer, a page's in one statement (src/conversation/repository.ts).
 */
export type ConversationFields = keyof ConversationCounts;

/**
 * An entry's fields that anyone who may see it gets alike: neither the viewer's fields, nor the
 * conversation's counts, nor the owner-only ones (the contract's beverageOwnerFieldsSchema). The type leaves the owner-only
 * fields out, so this object cannot be given one (excess properties are a type error).
 */
export type PublicEntryFields = Omit<Beverage, ViewerFields | ConversationFields | OwnerOnlyField>;

export function publicFields(row: CountedRow): PublicEntryFields {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    name: row.name,
    subtype: row.subtype,
    makerName: row.makerName,
    rating: row.rating,
    notes: row.notes,
    status: row.status,
    inCellar: row.inCellar,
    photoPath: row.photoPath,
    visibility: row.visibility,
    createdAt: row.createdAt.toISOString(),
    drinkFrom: row.drinkFrom,
    drinkUntil: row.drinkUntil,
    tastingCount: row.tastingCount,
  };
}

/**
 * An entry row as its JSON is made from: with its bottle count (owner-only) and its tasting
 * count, which the entry readers add (src/beverages/list-statements.ts,
 * src/beverages/repository.ts, src/shares/repository.ts).
 */
export type CountedRow = BeverageRow & { bottleCount: number; tastingCount: number };

/** The owner-only fields: for the entry's owner alone. A field added to the contract must be given here. */
export function ownerFields(row: CountedRow): BeverageOwnerFields {
  return { federated: row.federated, bottleCount: row.bottleCount };
}

/**
 * The owner-only fields as JSON members to add inside an object, from a leading comma (e.g.
 * `,"federated":true`): what a cached public JSON object (src/beverages/entry-json.ts) gets
 * for its owner.
 */
export function ownerMembers(row: CountedRow): string {
  const json = JSON.stringify(ownerFields(row));
  return json === '{}' ? '' : `,${json.slice(1, -1)}`;
}
