import type { Beverage } from '../../contract/beverages.ts';
import type { EntryView } from './repository.ts';

/** The Beverage entry, as the API returns it (contract/beverages.ts). */
export type BeverageDto = Beverage;

export function presentBeverage(entry: EntryView, viewerId: number): BeverageDto {
  return {
    id: entry.id,
    userId: entry.userId,
    type: entry.type,
    name: entry.name,
    subtype: entry.subtype,
    makerName: entry.makerName,
    rating: entry.rating,
    notes: entry.notes,
    status: entry.shared?.listStatus ?? entry.status,
    inCellar: entry.inCellar,
    photoPath: entry.photoPath,
    createdAt: entry.createdAt.toISOString(),
    isOwner: entry.userId === viewerId,
    ownerName: entry.ownerName,
    sharedWithCurrentUser: entry.shared !== undefined,
    sharedWith: entry.sharedWith ?? [],
  };
}
