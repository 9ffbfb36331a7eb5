import { describe, expect, it } from 'vitest';
import type { Bottle } from '../../web/src/entry-cellar/api.ts';
import {
  OTHER_SIZE,
  PRICE_MESSAGE,
  QUANTITY_MESSAGE,
  SIZE_MESSAGE,
  VINTAGE_MESSAGE,
  bottleDraft,
  bottleJson,
  bottleSummary,
  placeLabel,
  sizeLabel,
} from '../../web/src/entry-cellar/bottle-form.ts';
import { dayLabel, today } from '../../web/src/entry-cellar/days.ts';
import { bottleCountLabel, drinkWindowLabel } from '../../web/src/vault/cellar-labels.ts';

const bottle: Bottle = {
  id: 3,
  beverageId: 7,
  quantity: 4,
  sizeMl: 750,
  vintage: 2018,
  placeId: 9,
  placePath: ['Basement', 'Rack A'],
  purchasedOn: '2025-11-02',
  price: 24.5,
  currency: 'EUR',
  note: 'From the estate',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('the bottle form', () => {
  it('starts a new line as one 750 ml bottle, nothing else given', () => {
    expect(bottleJson(bottleDraft(), 'WINE')).toEqual({
      json: {
        quantity: 1,
        sizeMl: 750,
        vintage: null,
        placeId: null,
        purchasedOn: null,
        price: null,
        currency: null,
        note: '',
      },
    });
  });

  it('loads a line and sends it back unchanged', () => {
    const { id: _id, beverageId: _b, placePath: _p, createdAt: _c, ...fields } = bottle;
    expect(bottleJson(bottleDraft(bottle), 'WINE')).toEqual({ json: fields });
  });

  it('takes a size that is not a common one in ml, and loads it as one', () => {
    const draft = { ...bottleDraft(), size: OTHER_SIZE, otherSize: '620' };
    expect(bottleJson(draft, 'WHISKEY')).toMatchObject({ json: { sizeMl: 620 } });
    expect(bottleDraft({ ...bottle, sizeMl: 620 })).toMatchObject({
      size: OTHER_SIZE,
      otherSize: '620',
    });
  });

  it('sends no vintage for beer, a price with a comma, and the currency in capitals', () => {
    const draft = { ...bottleDraft(), vintage: '2020', price: '3,20', currency: ' gbp ' };
    expect(bottleJson(draft, 'BEER')).toMatchObject({
      json: { vintage: null, price: 3.2, currency: 'GBP' },
    });
  });

  it('says what is wrong before sending', () => {
    const base = bottleDraft();
    expect(bottleJson({ ...base, quantity: '0' }, 'WINE')).toEqual({ error: QUANTITY_MESSAGE });
    expect(bottleJson({ ...base, quantity: '1.5' }, 'WINE')).toEqual({ error: QUANTITY_MESSAGE });
    expect(bottleJson({ ...base, size: OTHER_SIZE, otherSize: '' }, 'WINE')).toEqual({
      error: SIZE_MESSAGE,
    });
    expect(bottleJson({ ...base, vintage: '1650' }, 'WINE')).toEqual({ error: VINTAGE_MESSAGE });
    expect(bottleJson({ ...base, price: 'ten' }, 'WINE')).toEqual({ error: PRICE_MESSAGE });
  });
});

describe('how bottles, places and windows read', () => {
  it('names a line, a size, a place and a count', () => {
    expect(bottleSummary(bottle)).toBe('4 × 750 ml · 2018');
    expect(bottleSummary({ quantity: 1, sizeMl: 1500, vintage: null })).toBe('1 × 1.5 l');
    expect(sizeLabel(187)).toBe('187 ml');
    expect(placeLabel(bottle.placePath)).toBe('Basement › Rack A');
    expect([bottleCountLabel(1), bottleCountLabel(6)]).toEqual(['1 bottle', '6 bottles']);
  });

  it('says the drinking window with either bound open', () => {
    expect(drinkWindowLabel(2026, 2032)).toBe('Drink 2026–2032');
    expect(drinkWindowLabel(2026, 2026)).toBe('Drink 2026');
    expect(drinkWindowLabel(2026, null)).toBe('Drink from 2026');
    expect(drinkWindowLabel(null, 2032)).toBe('Drink until 2032');
    expect(drinkWindowLabel(null, null)).toBeNull();
  });

  it("dates a new tasting on the device's own day", () => {
    expect(today(new Date(2026, 2, 7, 23, 30))).toBe('2026-03-07');
    expect(dayLabel('2026-03-07')).toContain('2026');
    expect(dayLabel('not a day')).toBe('not a day');
  });
});
