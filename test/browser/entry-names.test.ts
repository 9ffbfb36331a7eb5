import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * An entry card's name on a phone wraps between words, its badges ('In cellar', '2 bottles')
 * going below it when they do not fit beside it, instead of squeezing it into 'Walk Baro' / 'lo'.
 */

const people = peopleInBrowsers();

const NAMES = ['Walk Barolo', 'Château Léoville Las Cases', 'Brunello di Montalcino Riserva'];

beforeAll(async () => {
  const user = (await people.server.ctx.users.findByUsername(people.server.adminUsername))!;
  for (const name of NAMES) {
    const { id } = await seedEntry(people.server, people.server.adminUsername, {
      name,
      type: 'WINE',
      subtype: 'Syrah',
      inCellar: true,
    });
    await people.server.ctx.bottles.add({ id: user.id, role: user.role }, id, {
      quantity: 2,
      sizeMl: 750,
    });
  }
});

/** The words of the heading's text drawn across more than one line box. */
const splitWords = (heading: Locator) =>
  heading.evaluate((element) => {
    const split: string[] = [];
    const doc = element.ownerDocument;
    const SHOW_TEXT = 4; // NodeFilter.SHOW_TEXT
    const walker = doc.createTreeWalker(element, SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as typeof node & { data: string };
      for (const word of text.data.matchAll(/\S+/g)) {
        const range = doc.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const boxes = [...range.getClientRects()].filter((box) => box.width > 0);
        if (boxes.length !== 1) split.push(word[0]);
      }
    }
    return split;
  });

describe('entry names on a phone', () => {
  it('wrap between words at 390 and 320 px, never inside one, with the badges beside or below', async () => {
    const page = await people.openAs('admin', '/wine', { width: 390, height: 844 });
    const split: Record<string, string[]> = {};
    let wrapped = 0;
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      for (const name of NAMES) {
        const card = page.getByRole('article', { name });
        const heading = card.getByRole('heading', { name });
        await heading.waitFor();
        const words = await splitWords(heading);
        if (words.length > 0) split[`${name} at ${width} px`] = words;
        // Names longer than a line do wrap (so the words above were measured across lines).
        const lineHeight = await heading.evaluate((element) =>
          parseFloat(element.ownerDocument.defaultView!.getComputedStyle(element).lineHeight),
        );
        if ((await heading.boundingBox())!.height > lineHeight * 1.5) wrapped++;
        // The badges stay whole, inside the card.
        const cardBox = (await card.boundingBox())!;
        for (const badge of ['In cellar', '2 bottles']) {
          const box = (await card.getByText(badge, { exact: true }).boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
        }
      }
    }
    expect(split).toEqual({});
    expect(wrapped).toBeGreaterThan(0);
  });
});
