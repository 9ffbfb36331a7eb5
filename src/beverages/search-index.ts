import type { Database } from '../db/database.ts';
import { otherProcessWrites } from '../db/read-cache.ts';
import { inWindow } from './drink-window.ts';
import type { BeverageFilter } from './repository.ts';
import { buildPairIndex, candidatesFor, nextCandidate, type PairIndex } from './search-pairs.ts';

/**
 * Search over one user's entries, in memory. For each owner whose entries are searched, the
 * text of every entry (name, subtype, maker, notes; lower case, accents removed) is kept in
 * newest-first order, with bit sets of the entries holding each pair of letters or digits; a
 * search tests only the entries that hold all of its words' pairs, with substring tests, until
 * it has a page. That costs tens of microseconds for 20,000 entries, where the full-text
 * index took 5 to 10 ms for a common word combined with a two-letter one ("cask 42": the
 * trigram index cannot serve words under three letters, and a common word's posting list is
 * long). An owner's index is built on the first search after their entries change (about
 * 50 ms for 20,000 entries) and dropped when more than a few owners' indexes are kept.
 */

/** Owners whose index is kept (the least recently searched is dropped first). */
const MAX_OWNERS = 8;
/** How many words of a search count (the rest are ignored). */
export const MAX_TERMS = 10;

/** Lower case, accents removed: how entry text and search words are compared. */
export function fold(text: string): string {
  // Most text is plain ASCII, which needs no decomposition (three times faster to index).
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
const NON_ASCII = /[^ -~\t\n\r]/;

/** The words of a search, folded; control characters (the field separator) removed. */
export function searchWords(q: string | undefined): string[] {
  return (q ?? '')
    .split(/\s+/)
    .map((word) => fold(word).replace(/\p{Cc}/gu, ''))
    .filter(Boolean)
    .slice(0, MAX_TERMS);
}

/** Entry metadata, in newest-first order, and the entries' folded text as one string. */
interface OwnerIndex {
  generation: number;
  others: number;
  ids: number[];
  createdAt: number[];
  types: string[];
  statuses: string[];
  inCellar: number[];
  visibilities: string[];
  /** The drinking window's years (null: open). */
  drinkFrom: (number | null)[];
  drinkUntil: (number | null)[];
  /**
   * Every entry's name, subtype, maker and notes, folded, the fields separated by U+0001 and
   * the entries by U+0002 (no search word contains either, so no match spans two). Entry i
   * starts at starts[i]; starts has one more item, the corpus length + 1.
   */
  corpus: string;
  starts: Int32Array;
  /** Which entries hold which pairs of letters and digits (src/beverages/search-pairs.ts). */
  pairs: PairIndex;
}

interface LoadedRow {
  id: number;
  created_at: number;
  type: string;
  status: string;
  in_cellar: number;
  visibility: string;
  drink_from: number | null;
  drink_until: number | null;
  name: string;
  subtype: string;
  maker_name: string;
  notes: string;
}

export function createSearchIndex(db: Database) {
  const owners = new Map<number, OwnerIndex>();
  const othersChanged = otherProcessWrites(db);
  const load = db.prepare<LoadedRow>(
    `select id, created_at, type, status, in_cellar, visibility, drink_from, drink_until,
            name, subtype, maker_name, notes
       from beverages where user_id = ? order by created_at desc, id desc`,
  );
  /** Bumped by every write to entries made through the repository. */
  let generation = 0;

  async function indexOf(userId: number): Promise<OwnerIndex> {
    const others = othersChanged();
    const cached = owners.get(userId);
    if (cached && cached.generation === generation && cached.others === others) {
      owners.delete(userId);
      owners.set(userId, cached);
      return cached;
    }
    // The generation the rows are read at: a write meanwhile makes the index outdated at once.
    const readAt = generation;
    const rows = await load.all(userId);
    const index: OwnerIndex = {
      generation: readAt,
      others,
      ids: [],
      createdAt: [],
      types: [],
      statuses: [],
      inCellar: [],
      visibilities: [],
      drinkFrom: [],
      drinkUntil: [],
      corpus: '',
      starts: new Int32Array(rows.length + 1),
      pairs: { sets: [], words: 0 },
    };
    const texts: string[] = [];
    let offset = 0;
    rows.forEach((row, i) => {
      index.ids.push(row.id);
      index.createdAt.push(row.created_at);
      index.types.push(row.type);
      index.statuses.push(row.status);
      index.inCellar.push(row.in_cellar);
      index.visibilities.push(row.visibility);
      index.drinkFrom.push(row.drink_from);
      index.drinkUntil.push(row.drink_until);
      const fields = [row.name, row.subtype, row.maker_name, row.notes];
      const text = fields.map((field) => fold(field)).join('\u0001');
      index.starts[i] = offset;
      offset += text.length + 1;
      texts.push(text);
    });
    index.starts[rows.length] = offset;
    index.corpus = texts.join('\u0002');
    index.pairs = buildPairIndex(index.corpus, index.starts, rows.length);
    owners.delete(userId);
    if (owners.size >= MAX_OWNERS) owners.delete(owners.keys().next().value!);
    owners.set(userId, index);
    return index;
  }

  return {
    /** Entries were written: every owner's index is rebuilt on its next search. */
    changed(): void {
      generation++;
    },

    /**
     * The matching entries (id, when logged), newest first, at most `filter.limit`. Only the
     * entries whose text has every pair of letters and digits of every word are looked at
     * (src/beverages/search-pairs.ts); each is checked against the filters and the words.
     */
    async search(
      filter: BeverageFilter,
      words: string[],
      /** Only these entries (those with a bottle in the filter's place). */
      within?: ReadonlySet<number>,
    ): Promise<{ id: number; at: number }[]> {
      const index = await indexOf(filter.userId);
      const { corpus, starts } = index;
      const inCellar = filter.inCellar === undefined ? undefined : filter.inCellar ? 1 : 0;
      const matches: { id: number; at: number }[] = [];
      // Another user's entries: only those the visibility policy lets the viewer see.
      const levels = filter.scope && new Set<string>(filter.scope.visibilities);
      const shared = filter.scope && new Set(filter.scope.sharedIds);
      /** Whether entry i passes the filters and holds `words`; collects it if so. */
      const take = (i: number, others: string[]): boolean => {
        if (filter.type && index.types[i] !== filter.type) return false;
        if (within && !within.has(index.ids[i]!)) return false;
        if (filter.status && index.statuses[i] !== filter.status) return false;
        if (inCellar !== undefined && index.inCellar[i] !== inCellar) return false;
        const window = filter.window;
        if (
          window &&
          !inWindow(window.kind, window.year, index.drinkFrom[i]!, index.drinkUntil[i]!)
        ) {
          return false;
        }
        if (levels && !levels.has(index.visibilities[i]!) && !shared!.has(index.ids[i]!)) {
          return false;
        }
        const text = corpus.slice(starts[i], starts[i + 1]! - 1);
        if (!others.every((word) => text.includes(word))) return false;
        matches.push({ id: index.ids[i]!, at: index.createdAt[i]! });
        return true;
      };
      const from = firstAfter(index, filter.before);
      // Only the entries that hold every pair of letters of every word can match.
      const candidates = candidatesFor(index.pairs, words);
      if (candidates) {
        for (
          let i = nextCandidate(candidates, from);
          i >= 0;
          i = nextCandidate(candidates, i + 1)
        ) {
          if (take(i, words) && matches.length >= filter.limit) break;
        }
        return matches;
      }
      // Words without such a pair (a single letter, say): jump through the text from one
      // occurrence of the rarest word to the next.
      const [first, ...others] = rarestFirst(index, words);
      if (first === undefined) return [];
      let at = starts[from]!;
      for (;;) {
        const found = corpus.indexOf(first, at);
        if (found < 0) break;
        const i = entryAt(starts, found);
        at = starts[i + 1]!;
        if (take(i, others) && matches.length >= filter.limit) break;
      }
      return matches;
    },
  };
}

export type SearchIndex = ReturnType<typeof createSearchIndex>;

/** The entry whose text holds corpus position `position` (binary search over starts). */
function entryAt(starts: Int32Array, position: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The first entry (newest-first order) older than the cursor position, or 0 without one. */
function firstAfter(index: OwnerIndex, before: BeverageFilter['before']): number {
  if (!before) return 0;
  let low = 0;
  let high = index.ids.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const t = index.createdAt[mid]!;
    const older = t < before.createdAt || (t === before.createdAt && index.ids[mid]! < before.id);
    if (older) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The words ordered so that the one fewest entries contain comes first (judged on a sample of
 * the newest entries).
 */
function rarestFirst(index: OwnerIndex, words: string[]): string[] {
  if (words.length < 2) return words;
  const sample = index.corpus.slice(0, index.starts[Math.min(256, index.ids.length)]);
  const count = (word: string) => sample.split(word).length - 1;
  const hits = new Map(words.map((word) => [word, count(word)]));
  return [...words].sort((a, b) => hits.get(a)! - hits.get(b)!);
}
