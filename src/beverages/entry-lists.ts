import type { BeverageRow, BeverageStatus, BeverageType, Role } from '../db/schema/index.ts';
import { badRequest, notFound } from '../domain-error.ts';
import { BEVERAGE_MAX_LIMIT, type ShareUser } from '../../contract/beverages.ts';
import type { DrinkWindow } from '../../contract/cellar.ts';
import type { AcceptedEntry, ShareRepository } from '../shares/repository.ts';
import type { UserRepository } from '../users/repository.ts';
import type { VisibilityPolicy } from '../visibility/policy.ts';
import type { BeverageRepository, EntryView, ListPosition, ListedEntry } from './repository.ts';
import { fold, searchWords } from './search-index.ts';

export interface ListQuery {
  userId?: number | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  type?: BeverageType | undefined;
  status?: BeverageStatus | undefined;
  inCellar?: boolean | undefined;
  /** Only entries inside, past or before their drinking window in the current year (UTC). */
  window?: DrinkWindow | undefined;
  /** Only the caller's entries with a bottle in this place of theirs or a place inside it. */
  placeId?: number | undefined;
  q?: string | undefined;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = BEVERAGE_MAX_LIMIT;

interface Viewer {
  id: number;
  role: Role;
}

/**
 * An entry of a page: one of the listed user's own, as SQLite serialized it, or an entry shared
 * with the viewer that they added to their vault.
 */
export type PageEntry = ListedEntry | EntryView;

export function isListed(entry: PageEntry): entry is ListedEntry {
  return 'json' in entry;
}

/**
 * Where an entry sits in a list, newest first: the viewer's own entries by when they were
 * logged, entries shared with the viewer by when the viewer added them (so a just-accepted one
 * is at the top). Ties go by entry id; an entry is in one list once.
 */
function sortTimeOf(entry: PageEntry): number {
  if (isListed(entry)) return entry.at;
  return entry.shared ? entry.shared.acceptedAt : entry.createdAt.getTime();
}

/** The opaque cursor of a list page: where the next page starts. */
function encodeCursor(entry: PageEntry): string {
  return Buffer.from(`${sortTimeOf(entry)}:${entry.id}`).toString('base64url');
}

/**
 * An entry another user shared with the viewer. Its bottles are its owner's, who is never the
 * viewer here, so its owner-only bottleCount is never given and is not read.
 */
function sharedView(accepted: AcceptedEntry): EntryView {
  return Object.assign(accepted.row, {
    ownerName: accepted.ownerName,
    shared: accepted.share,
    bottleCount: 0,
    tastingCount: accepted.tastingCount,
  });
}

/** Whether a shared entry's text holds every search word (as the search index tests them). */
function matchesWords(entry: BeverageRow, words: string[]): boolean {
  const text = [entry.name, entry.subtype, entry.makerName, entry.notes].map(fold).join('\u0001');
  return words.every((word) => text.includes(word));
}

/** Two newest-first lists as one, newest first. */
function mergeNewestFirst(a: PageEntry[], b: PageEntry[]): PageEntry[] {
  if (b.length === 0) return a;
  const merged: PageEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (
      !y ||
      (x && (sortTimeOf(x) > sortTimeOf(y) || (sortTimeOf(x) === sortTimeOf(y) && x.id > y.id)))
    ) {
      merged.push(x!);
      i++;
    } else {
      merged.push(y);
      j++;
    }
  }
  return merged;
}

function decodeCursor(cursor: string): ListPosition {
  const match = /^(\d{1,15}):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw badRequest('The cursor is not valid');
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}

/**
 * Entry lists (GET /api/beverages): a user's own entries merged with the entries shared with
 * them that they added to their vault, newest first, keyset-paged across both.
 */
export function createEntryLists(deps: {
  repo: BeverageRepository;
  users: UserRepository;
  shares: ShareRepository;
  visibility: VisibilityPolicy;
  now: () => number;
}) {
  const { repo, users, shares, visibility, now } = deps;

  /**
   * The caller's entries by default, with the entries shared with them that they added to
   * their vault; with userId, that user's entries. Newest first, one page at a time:
   * `nextCursor` is null on the last page. Shared entries and `sharedWith` cost one more
   * indexed query together, made only for users who have shares (known from a cache).
   */
  async function list(
    viewer: Viewer,
    query: ListQuery,
  ): Promise<{ entries: PageEntry[]; nextCursor: string | null }> {
    const userId = query.userId ?? viewer.id;
    const own = userId === viewer.id;
    if (!own && !(await users.findById(userId))) throw notFound('User not found');
    const limit = Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const before = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
    const filter = {
      type: query.type,
      status: query.status,
      inCellar: query.inCellar,
      // Judged by the year of the server's clock, read for each list (it changes at New Year).
      window: query.window && { kind: query.window, year: new Date(now()).getUTCFullYear() },
    };
    // Another user's list holds only what the viewer may see, filtered in SQL (or the search).
    const scope = own ? 'all' : await visibility.scopeOf(viewer, userId);
    if (scope === null) return { entries: [], nextCursor: null };
    // Bottles are their owner's alone: the caller's place holds none of another's entries.
    const inPlace = query.placeId !== undefined;
    if (inPlace && !own) return { entries: [], nextCursor: null };
    let rows: PageEntry[] = await repo.list({
      userId,
      ...filter,
      ...(inPlace && { place: { ownerId: userId, placeId: query.placeId! } }),
      ...(scope !== 'all' && { scope }),
      q: query.q,
      ...(before && { before }),
      limit: limit + 1,
    });
    const involvement = await shares.involvementOf(userId);
    // Whom the page's entries are shared with: for the owner and admins, only if any are.
    const wantsRecipients = involvement.outgoing && visibility.canSeeSharesOf(viewer, userId);
    let recipients: Map<number, ShareUser[]> | undefined;
    if (own && involvement.incoming && !inPlace) {
      const words = searchWords(query.q);
      const found = await shares.acceptedEntries({
        recipientId: viewer.id,
        ...filter,
        before: before && { at: before.createdAt, id: before.id },
        limit: words.length > 0 ? undefined : limit + 1,
        recipientsOf: wantsRecipients ? rows.map((row) => row.id) : undefined,
      });
      if (wantsRecipients) recipients = found.recipients;
      const shared = found.accepted
        .filter((accepted) => words.length === 0 || matchesWords(accepted.row, words))
        .slice(0, limit + 1)
        .map(sharedView);
      rows = mergeNewestFirst(rows, shared);
    }
    const entries = rows.slice(0, limit);
    const last = entries[entries.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor(last) : null;
    if (wantsRecipients) {
      const owned = entries.filter((entry) => entry.userId === userId);
      recipients ??= await shares.recipientsOf(owned.map((entry) => entry.id));
      for (const entry of owned) entry.sharedWith = recipients.get(entry.id) ?? [];
    }
    return { entries, nextCursor };
  }

  return { list };
}
