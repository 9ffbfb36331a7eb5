/**
 * Which entries can hold a search word, from the pairs of letters and digits they contain. For
 * each pair of adjacent characters of [a-z0-9] (text is folded first: lower case, no accents),
 * a bit set over the owner's entries (in the search index's newest-first order) marks those
 * whose text has that pair. An entry that holds a word holds every pair of the word, so the
 * entries that can match are the AND of the word's pairs' sets: a search then checks only those,
 * instead of scanning the text of every entry for its rarest word (which cost about a quarter of
 * a millisecond for 20,000 entries: most of a search). At most 36 × 36 sets of one bit per
 * entry: 3.2 MB for 20,000 entries, usually far less.
 */
const ALPHABET = 36;

/** 0–35 for a–z and 0–9, -1 for anything else. */
function codeOf(charCode: number): number {
  if (charCode >= 97 && charCode <= 122) return charCode - 97;
  if (charCode >= 48 && charCode <= 57) return charCode - 48 + 26;
  return -1;
}

export interface PairIndex {
  /** One bit set per pair (index a × 36 + b), absent for a pair no entry holds. */
  sets: (Uint32Array | undefined)[];
  /** 32-bit words per set. */
  words: number;
}

/** Entry i's text is corpus[starts[i], starts[i + 1] - 1). */
export function buildPairIndex(corpus: string, starts: Int32Array, count: number): PairIndex {
  const words = (count + 31) >> 5;
  const sets: (Uint32Array | undefined)[] = new Array(ALPHABET * ALPHABET);
  for (let i = 0; i < count; i++) {
    const end = starts[i + 1]! - 1;
    const word = i >> 5;
    const bit = 1 << (i & 31);
    let previous = codeOf(corpus.charCodeAt(starts[i]!));
    for (let j = starts[i]! + 1; j < end; j++) {
      const code = codeOf(corpus.charCodeAt(j));
      if (previous >= 0 && code >= 0) {
        const set = (sets[previous * ALPHABET + code] ??= new Uint32Array(words));
        set[word] = set[word]! | bit;
      }
      previous = code;
    }
  }
  return { sets, words };
}

/**
 * The entries that can hold every one of the (folded) words, as a bit set; undefined when no
 * word has a pair of letters or digits to go by (every entry can then match).
 */
export function candidatesFor(index: PairIndex, words: string[]): Uint32Array | undefined {
  let result: Uint32Array | undefined;
  for (const word of words) {
    let previous = codeOf(word.charCodeAt(0));
    for (let j = 1; j < word.length; j++) {
      const code = codeOf(word.charCodeAt(j));
      if (previous >= 0 && code >= 0) {
        const set = index.sets[previous * ALPHABET + code];
        if (!set) return new Uint32Array(index.words); // no entry holds this pair
        if (!result) result = set.slice();
        else for (let w = 0; w < result.length; w++) result[w] = result[w]! & set[w]!;
      }
      previous = code;
    }
  }
  return result;
}

/** The first entry at or after `from` whose bit is set, or -1. */
export function nextCandidate(set: Uint32Array, from: number): number {
  let w = from >> 5;
  if (w >= set.length) return -1;
  let bits = set[w]! & (~0 << (from & 31));
  for (;;) {
    if (bits !== 0) return (w << 5) + (31 - Math.clz32(bits & -bits));
    if (++w >= set.length) return -1;
    bits = set[w]!;
  }
}
