// Entries for the client's unit tests: each new one a second later than the last.
import type { Beverage } from '../../web/src/api/types.ts';

let nextId = 1;

/** A whiskey entry of user 1 ('Ada'), with `overrides`. */
export function entry(overrides: Partial<Beverage> = {}): Beverage {
  const id = overrides.id ?? nextId++;
  return {
    id,
    userId: 1,
    type: 'WHISKEY',
    name: `Entry ${id}`,
    subtype: 'Bourbon',
    makerName: '',
    rating: 3,
    notes: '',
    status: 'TRIED',
    inCellar: false,
    photoPath: null,
    visibility: 'MEMBERS',
    federated: true,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
    isOwner: true,
    ownerName: 'Ada',
    sharedWithCurrentUser: false,
    sharedWith: [],
    cheerCount: 0,
    cheeredByMe: false,
    commentCount: 0,
    drinkFrom: null,
    drinkUntil: null,
    tastingCount: 0,
    ...overrides,
  };
}

export const ids = (entries: Beverage[]) => entries.map((e) => e.id);
export const tried = { type: 'WHISKEY', status: 'TRIED' } as const;
