import type { BeverageStatus, BeverageType } from '../db/schema/index.ts';
import type { BeverageWithOwner } from './repository.ts';

/** A user an entry is shared with. */
export interface ShareUserDto {
  id: number;
  username: string;
  fullName: string;
}

/** The Beverage entry, as the API returns it. */
export interface BeverageDto {
  id: number;
  userId: number;
  type: BeverageType;
  name: string;
  subtype: string;
  makerName: string;
  rating: number;
  notes: string;
  status: BeverageStatus;
  inCellar: boolean;
  photoPath: string | null;
  createdAt: string;
  isOwner: boolean;
  ownerName: string;
  sharedWithCurrentUser: boolean;
  sharedWith: ShareUserDto[];
}

export function presentBeverage(entry: BeverageWithOwner, viewerId: number): BeverageDto {
  return {
    id: entry.id,
    userId: entry.userId,
    type: entry.type,
    name: entry.name,
    subtype: entry.subtype,
    makerName: entry.makerName,
    rating: entry.rating,
    notes: entry.notes,
    status: entry.status,
    inCellar: entry.inCellar,
    photoPath: entry.photoPath,
    createdAt: entry.createdAt.toISOString(),
    isOwner: entry.userId === viewerId,
    ownerName: entry.ownerName,
    sharedWithCurrentUser: false,
    sharedWith: [],
  };
}
