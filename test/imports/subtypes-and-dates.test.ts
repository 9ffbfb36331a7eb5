import { describe, expect, it } from 'vitest';
import { dateIn } from '../../src/imports/rows.ts';
import { closestSubtype } from '../../src/imports/subtypes.ts';

describe('The closest subtype', () => {
  it.each([
    ['BEER', 'IPA - New England / Hazy', 'IPA'],
    ['BEER', 'IPA - Belgian', 'IPA'],
    ['BEER', 'Belgian Tripel', 'Belgian'],
    ['BEER', 'Pale Ale - American', 'Pale Ale'],
    ['BEER', 'Pilsner - German', 'Pilsner'],
    ['BEER', 'Kölsch', 'Lager'],
    ['BEER', 'Wheat Beer - Witbier', 'Wheat'],
    ['BEER', 'Sour - Berliner Weisse', 'Sour'],
    ['BEER', 'Märzen', 'Lager'],
    ['WINE', 'Australian Shiraz', 'Syrah'],
    ['WINE', 'Pinot Gris', 'Pinot Grigio'],
    ['WINE', 'GEWÜRZTRAMINER', 'Gewürztraminer'],
    ['WINE', 'Rosé - Sparkling', 'Sparkling Rosé'],
    ['WINE', 'Spanish Rioja Red', 'Tempranillo'],
    ['WINE', 'Italian Barolo', 'Nebbiolo'],
    ['WHISKEY', 'Islay Single Malt Scotch Whisky', 'Single Malt'],
    ['WHISKEY', 'Tennessee Whiskey', 'Bourbon'],
  ] as const)('of %s "%s" is %s', (type, text, subtype) => {
    expect(closestSubtype(type, [text])).toEqual({ subtype, original: null });
  });

  it('matches whole words only: "Pipa" is no IPA', () => {
    expect(closestSubtype('BEER', ['Pipa Special'])).toEqual({
      subtype: 'Lager',
      original: 'Pipa Special',
    });
  });

  it('tries the candidates in order and keeps the first non-empty one when none matches', () => {
    expect(closestSubtype('WINE', ['', 'Merlot'])).toEqual({ subtype: 'Merlot', original: null });
    expect(closestSubtype('WINE', [undefined, 'Orange wine', 'Georgia'])).toEqual({
      subtype: 'Cabernet Sauvignon',
      original: 'Orange wine',
    });
  });
});

describe('Dates in imported files', () => {
  it.each([
    ['2024-03-01 20:12:00', Date.UTC(2024, 2, 1, 20, 12)],
    ['2024-03-01', Date.UTC(2024, 2, 1)],
    ['2024-03-01T20:12:00+0200', Date.UTC(2024, 2, 1, 18, 12)],
    ['2024-03-01T20:12:00.123Z', Date.UTC(2024, 2, 1, 20, 12)],
    ['3/1/2024', Date.UTC(2024, 2, 1)],
    ['Fri, 01 Mar 2024 20:12:00 +0000', Date.UTC(2024, 2, 1, 20, 12)],
  ])('reads "%s"', (text, ms) => {
    expect(dateIn(text)).toBe(ms);
  });

  it.each(['', 'yesterday', '2024-13-45', '31/12/2024'])('leaves "%s" unread', (text) => {
    expect(dateIn(text)).toBeNull();
  });
});
