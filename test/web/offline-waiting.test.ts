import { describe, expect, it } from 'vitest';
import type { QueuedChange, WriteRouteKey } from '../../web/src/offline/queue-store.ts';
import { changeOf, newIdempotencyKey } from '../../web/src/offline/send-or-queue.ts';
import {
  waitingBottles,
  waitingEntries,
  waitingTastings,
  withWaitingEdits,
} from '../../web/src/offline/waiting.ts';
import { entry } from './entries.ts';

// What the changes kept offline will be once sent, as the lists show them meanwhile.

let seq = 0;
/** A change as the queue keeps it, made the way the forms make it (changeOf). */
function kept(route: WriteRouteKey, input: Parameters<typeof changeOf>[1]): QueuedChange {
  seq += 1;
  const at = Date.UTC(2026, 10, 28, 12, 0, seq);
  return { ...changeOf(route, input, 'change', newIdempotencyKey(), at), seq };
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const logged = (fields: Record<string, string>) =>
  kept('POST /beverages', {
    form: form({
      type: 'WHISKEY',
      subtype: 'Single Malt',
      rating: '3',
      status: 'TRIED',
      ...fields,
    }),
  });

describe('new entries kept offline', () => {
  const ardbeg = logged({ name: 'Ardbeg', inCellar: 'true', makerName: 'Ardbeg' });
  const barolo = logged({
    name: 'Barolo',
    type: 'WINE',
    subtype: 'Nebbiolo',
    status: 'TO_TRY',
    rating: '0',
  });
  const changes = [
    ardbeg,
    barolo,
    kept('POST /beverages/{id}/tastings', { params: { id: 1 }, json: {} }),
  ];

  it("belong in their type's and status's lists, newest first, as the form typed them", () => {
    expect(waitingEntries(changes, {})).toMatchObject([
      { seq: barolo.seq, name: 'Barolo', type: 'WINE', status: 'TO_TRY', rating: 0 },
      {
        seq: ardbeg.seq,
        name: 'Ardbeg',
        type: 'WHISKEY',
        status: 'TRIED',
        rating: 3,
        inCellar: true,
        makerName: 'Ardbeg',
      },
    ]);
    expect(
      waitingEntries(changes, { type: 'WHISKEY', status: 'TRIED' }).map((e) => e.name),
    ).toEqual(['Ardbeg']);
    expect(waitingEntries(changes, { type: 'WHISKEY', status: 'TO_TRY' })).toEqual([]);
    expect(waitingEntries(changes, { q: 'nebb' }).map((e) => e.name)).toEqual(['Barolo']);
  });

  it("are in no list filtered otherwise (someone's profile, the cellar's windows)", () => {
    expect(waitingEntries(changes, { userId: 1 })).toEqual([]);
    expect(waitingEntries(changes, { type: 'WHISKEY', window: 'NOW' })).toEqual([]);
    // An unset filter is no filter.
    expect(waitingEntries(changes, { type: 'WINE', userId: undefined })).toHaveLength(1);
  });
});

describe('edits kept offline', () => {
  it("show an entry's new values, applied in order, and leave the others as they are", () => {
    const edited = entry({ name: 'Old name', notes: 'Old', drinkFrom: 2020 });
    const other = entry();
    const changes = [
      kept('PATCH /beverages/{id}', {
        params: { id: edited.id },
        form: form({
          name: 'First',
          notes: 'New notes',
          rating: '5',
          drinkFrom: '',
          inCellar: 'true',
        }),
      }),
      kept('PATCH /beverages/{id}', { params: { id: edited.id }, form: form({ name: 'Second' }) }),
    ];
    const { entries, waitingIds } = withWaitingEdits([edited, other], changes);
    expect(entries[0]).toEqual({
      ...edited,
      name: 'Second',
      notes: 'New notes',
      rating: 5,
      drinkFrom: null,
      inCellar: true,
    });
    expect(entries[1]).toBe(other);
    expect([...waitingIds]).toEqual([edited.id]);
  });
});

describe("an entry's tastings and bottles kept offline", () => {
  const bottles = [{ id: 7, vintage: 2017 }];
  const changes = [
    kept('POST /beverages/{id}/bottles/{bottleId}/open', {
      params: { id: 3, bottleId: 7 },
      json: { tasting: { tastedOn: '2026-11-27', rating: 4, notes: 'Violets' } },
    }),
    // Opened without a tasting: nothing to show among the tastings.
    kept('POST /beverages/{id}/bottles/{bottleId}/open', {
      params: { id: 3, bottleId: 7 },
      json: {},
    }),
    kept('POST /beverages/{id}/tastings', {
      params: { id: 3 },
      form: form({ tastedOn: '2026-11-28', rating: '', notes: 'With a photo' }),
    }),
    kept('POST /beverages/{id}/tastings', { params: { id: 4 }, json: { notes: 'Another entry' } }),
    kept('POST /beverages/{id}/bottles', {
      params: { id: 3 },
      json: { quantity: 2, sizeMl: 1500, vintage: 2020, placeId: 9 },
    }),
    kept('POST /beverages/{id}/bottles', { params: { id: 3 }, json: { quantity: 1, sizeMl: 750 } }),
  ];

  it('are the tastings logged alone or with an opened bottle, newest first', () => {
    expect(waitingTastings(changes, 3, bottles)).toMatchObject([
      { tastedOn: '2026-11-28', rating: null, notes: 'With a photo', opened: false, vintage: null },
      { tastedOn: '2026-11-27', rating: 4, notes: 'Violets', opened: true, vintage: 2017 },
    ]);
    expect(waitingTastings(changes, 3).every((tasting) => tasting.id < 0)).toBe(true);
  });

  it('are the bottle lines added, in order, with their place', () => {
    const places = [{ id: 9, path: ['Basement', 'Rack A'] }];
    expect(waitingBottles(changes, 3, places)).toMatchObject([
      { quantity: 2, sizeMl: 1500, vintage: 2020, placeId: 9, placePath: ['Basement', 'Rack A'] },
      { quantity: 1, sizeMl: 750, vintage: null, placeId: null, placePath: [] },
    ]);
    expect(waitingBottles(changes, 4)).toEqual([]);
  });
});
