import type { Visibility } from '../db/schema/index.ts';
import { isFederatedEntry } from '../visibility/policy.ts';

/** An entry's visibility setting: who sees it, and whether it goes to the fediverse. */
export interface VisibilitySetting {
  visibility: Visibility;
  federated: boolean;
}

/** What a form or request says of it; left out, the owner's default (and federated) apply. */
export interface VisibilityInput {
  visibility?: Visibility | undefined;
  federated?: boolean | undefined;
}

/** A new entry's setting: PRIVATE never federates; otherwise federated unless told not to. */
export function newSetting(input: VisibilityInput, ownerDefault: Visibility): VisibilitySetting {
  const visibility = input.visibility ?? ownerDefault;
  return { visibility, federated: visibility !== 'PRIVATE' && (input.federated ?? true) };
}

/**
 * An entry's setting after a change. An entry leaving PRIVATE federates again unless told not
 * to; otherwise `federated` stays as it was unless given.
 */
export function changedSetting(
  current: VisibilitySetting,
  input: VisibilityInput,
): VisibilitySetting {
  const visibility = input.visibility ?? current.visibility;
  if (visibility === 'PRIVATE') return { visibility, federated: false };
  const leavesPrivate = current.visibility === 'PRIVATE';
  const federated = input.federated ?? (leavesPrivate ? true : current.federated);
  return { visibility, federated };
}

/**
 * What the owner's remote followers must be sent when an entry's setting changes: its Note
 * again (Update) while it stays federated, a Delete when it no longer is, a Create when it
 * starts to be; nothing when it was and stays out of the fediverse.
 */
export function federationChange(
  before: VisibilitySetting,
  after: VisibilitySetting,
): 'Update' | 'Delete' | 'Create' | null {
  const was = isFederatedEntry(before);
  const is = isFederatedEntry(after);
  if (was && is) return 'Update';
  if (was) return 'Delete';
  if (is) return 'Create';
  return null;
}

/**
 * An entry that left the fediverse (its Delete recorded), or came back (`reentry`: the id of its
 * Update recorded as a Create): what goes with its Note follows it (its tastings' Notes).
 */
export type EntryFederationChange = { kind: 'left' } | { kind: 'returned'; reentry: number };
