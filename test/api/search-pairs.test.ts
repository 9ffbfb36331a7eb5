import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPairIndex, candidatesFor, nextCandidate } from '../../src/beverages/search-pairs.ts';

/** The corpus layout of the search index: fields joined by U+0001, entries by U+0002. */
function corpusOf(texts: string[]) {
  const starts = new Int32Array(texts.length + 1);
  let offset = 0;
  texts.forEach((text, i) => {
    starts[i] = offset;
    offset += text.length + 1;
  });
  starts[texts.length] = offset;
  return { corpus: texts.join('\u0002'), starts };
}

function candidateList(set: Uint32Array | undefined, count: number): number[] {
  if (!set) return [...Array(count).keys()];
  const found: number[] = [];
  for (let i = nextCandidate(set, 0); i >= 0; i = nextCandidate(set, i + 1)) found.push(i);
  return found;
}

const letters = fc.constantFrom(...'abc12 \u0001é-');
const text = fc.array(letters, { maxLength: 12 }).map((chars) => chars.join(''));

describe('the pair index of the search', () => {
  it('never leaves out an entry that holds every word', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 70 }),
        fc.array(
          fc
            .array(fc.constantFrom(...'abc12é'), { minLength: 1, maxLength: 4 })
            .map((c) => c.join('')),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        (texts, words) => {
          const { corpus, starts } = corpusOf(texts);
          const index = buildPairIndex(corpus, starts, texts.length);
          const candidates = candidateList(candidatesFor(index, words), texts.length);
          texts.forEach((entry, i) => {
            if (words.every((word) => entry.includes(word))) expect(candidates).toContain(i);
          });
        },
      ),
      { seed: 20_261_123, numRuns: 300 },
    );
  });

  it('narrows the entries to those holding the pairs, across the 32-entry words of the sets', () => {
    const texts = Array.from({ length: 70 }, (_, i) => (i % 33 === 5 ? 'cask 42' : 'barrel 17'));
    const { corpus, starts } = corpusOf(texts);
    const index = buildPairIndex(corpus, starts, texts.length);
    expect(candidateList(candidatesFor(index, ['cask', '42']), texts.length)).toEqual([5, 38]);
    expect(candidateList(candidatesFor(index, ['zz']), texts.length)).toEqual([]);
    // A single letter has no pair: every entry remains a candidate.
    expect(candidatesFor(index, ['c'])).toBeUndefined();
  });
});
