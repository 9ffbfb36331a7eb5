import type { BeverageRow, BeverageStatus, BeverageType, Role } from '../db/schema/index.ts';
import { forbidden, notFound } from '../domain-error.ts';
import { PHOTO, type MediaStore } from '../media/images.ts';
import type { UserRepository } from '../users/repository.ts';
import { DEFAULT_RATING, subtypesOf } from './catalog.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { ShareRepository } from '../shares/repository.ts';
import { isFederatedEntry, type VisibilityPolicy } from '../visibility/policy.ts';
import { createEntryLists } from './entry-lists.ts';
import { assertSubtype, assertWindow, mergeChanges } from './entry-rules.ts';
import { createVisibilityChanges } from './visibility-changes.ts';
import { createEntryActivities } from './entry-activities.ts';
import {
  type EntryFederationChange,
  federationChange,
  newSetting,
  type VisibilityInput,
} from './entry-visibility.ts';
import type {
  BeverageRepository,
  BeverageWithOwner,
  EntryView,
  NewBeverage,
} from './repository.ts';

export interface Viewer {
  id: number;
  role: Role;
}

export interface NewEntryInput extends VisibilityInput {
  type: BeverageType;
  name: string;
  subtype?: string | undefined;
  makerName?: string | undefined;
  rating?: number | undefined;
  notes?: string | undefined;
  status?: BeverageStatus | undefined;
  inCellar?: boolean | undefined;
  /** The drinking window's years; null (or left out) for an open bound. */
  drinkFrom?: number | null | undefined;
  drinkUntil?: number | null | undefined;
}

export type { ListQuery } from './entry-lists.ts';

export type EntryChanges = Partial<Omit<NewEntryInput, 'type'>> & { type?: BeverageType };

const ENTRY_NOT_FOUND = 'Beverage not found';

/**
 * Everything a user does with entries. Every write goes through here, and each records its
 * activity (Create, Update, Delete) in the outbox in the same transaction (entry-activities.ts).
 * Photo files are written whole before the row names them and deleted only after it no longer
 * does, so a crash leaves the old or the new entry plus, at worst, an unreferenced file for the
 * sweep (src/media/sweep.ts).
 */
export function createBeverageService(deps: {
  repo: BeverageRepository;
  users: UserRepository;
  media: MediaStore;
  actors: ActorRepository;
  outbox: Outbox;
  transaction: Transaction;
  shares: ShareRepository;
  visibility: VisibilityPolicy;
  /**
   * In the transaction that deletes an entry: what goes with it is recorded (bottle events, its
   * tastings' Deletes). Answers the stored files that go with it (its tastings' photos), deleted
   * once the entry is.
   */
  onDelete?: ((entry: BeverageRow) => Promise<readonly string[] | void>) | undefined;
  /**
   * In the transaction that takes an entry out of the fediverse or brings it back: what goes
   * with its Note follows it (its tastings' Notes withdrawn, or sent again).
   */
  onFederationChange?:
    ((entry: BeverageRow, change: EntryFederationChange) => Promise<void>) | undefined;
  now?: () => number;
}) {
  const { repo, media, transaction, shares, visibility } = deps;
  const now = deps.now ?? Date.now;
  const lists = createEntryLists({ ...deps, now });
  const { announce, announceDelete, announceChange } = createEntryActivities({ ...deps, now });

  async function load(id: number): Promise<BeverageWithOwner> {
    const entry = await repo.findById(id);
    if (!entry) throw notFound(ENTRY_NOT_FOUND);
    return entry;
  }

  /** An entry the viewer may see (else 404: its existence is not revealed). */
  async function loadVisible(viewer: Viewer, id: number): Promise<BeverageWithOwner> {
    const entry = await repo.findById(id);
    if (!entry || !(await visibility.canSee(viewer, entry))) throw notFound(ENTRY_NOT_FOUND);
    return entry;
  }

  /** The entry as the viewer has it: the list they put a shared one in, whom it is shared with. */
  async function viewOf(viewer: Viewer, entry: BeverageWithOwner): Promise<EntryView> {
    const view: EntryView = entry;
    if (entry.userId !== viewer.id) {
      const accepted = await shares.acceptedEntry(entry.id, viewer.id);
      if (accepted) view.shared = accepted.share;
    }
    if (visibility.canSeeSharesOf(viewer, entry.userId)) {
      view.sharedWith = (await shares.recipientsOf([entry.id])).get(entry.id) ?? [];
    }
    return view;
  }

  /**
   * Stores a new entry whose photo (if any) is already saved, and announces it. If the row
   * cannot be written the photo goes too: a file is never left behind for a row that is not.
   */
  async function insertEntry(values: NewBeverage): Promise<BeverageWithOwner> {
    let row: BeverageRow;
    try {
      row = await transaction(async () => {
        const inserted = await repo.insert(values);
        await announce('Create', inserted);
        return inserted;
      });
    } catch (error) {
      await media.remove(values.photoPath);
      throw error;
    }
    return load(row.id);
  }

  /** The owner's default visibility for new entries. */
  async function defaultVisibilityOf(userId: number) {
    return (await deps.users.findById(userId))?.defaultVisibility ?? 'MEMBERS';
  }

  const visibilityChanges = createVisibilityChanges({
    repo,
    users: deps.users,
    transaction,
    announceChange,
    now,
  });

  /** Who may change, delete and share an entry: its owner or an admin. */
  function canModify(viewer: Viewer, entry: BeverageRow): boolean {
    return entry.userId === viewer.id || viewer.role === 'ADMIN';
  }

  function assertCanModify(viewer: Viewer, entry: BeverageRow) {
    if (!canModify(viewer, entry)) {
      throw forbidden('Only the owner or an admin can change this entry');
    }
  }

  return {
    /** A page of entries: see src/beverages/entry-lists.ts. */
    list: lists.list,

    /** An entry by id, whoever may see it or not (for the system's own use). */
    get(id: number): Promise<BeverageWithOwner> {
      return load(id);
    },

    /** One entry as the viewer sees it; 404 when they may not. */
    async view(viewer: Viewer, id: number): Promise<EntryView> {
      return viewOf(viewer, await loadVisible(viewer, id));
    },

    /** The entry as the viewer has it, for answers after a change (sharing, accepting). */
    viewOf,

    canModify,

    /** The visibility of many of the user's own entries at once: see visibility-changes.ts. */
    changeVisibility: visibilityChanges.change,

    async create(viewer: Viewer, input: NewEntryInput, photo?: Uint8Array) {
      const subtype = input.subtype ?? subtypesOf(input.type)[0]!;
      assertSubtype(input.type, subtype);
      const drinkFrom = input.drinkFrom ?? null;
      const drinkUntil = input.drinkUntil ?? null;
      assertWindow(drinkFrom, drinkUntil);
      const status = input.status ?? 'TRIED';
      const photoPath = photo ? await media.save(photo, PHOTO) : null;
      const t = new Date(now());
      return insertEntry({
        userId: viewer.id,
        type: input.type,
        name: input.name,
        subtype,
        makerName: input.makerName ?? '',
        rating: status === 'TO_TRY' ? 0 : (input.rating ?? DEFAULT_RATING),
        notes: input.notes ?? '',
        status,
        inCellar: input.inCellar ?? false,
        photoPath,
        ...newSetting(input, await defaultVisibilityOf(viewer.id)),
        drinkFrom,
        drinkUntil,
        createdAt: t,
        updatedAt: t,
      });
    },

    async update(
      viewer: Viewer,
      id: number,
      changes: EntryChanges,
      photo: { replace?: Uint8Array; remove?: boolean } = {},
    ) {
      const before = await load(id);
      assertCanModify(viewer, before);
      mergeChanges(before, changes); // refuse bad input before the slow photo work
      const newPhoto = photo.replace ? await media.save(photo.replace, PHOTO) : undefined;
      const photoChange =
        newPhoto !== undefined ? { photoPath: newPhoto } : photo.remove ? { photoPath: null } : {};
      let current: BeverageRow;
      let updated: BeverageRow | undefined;
      try {
        // Re-read in the transaction that writes: the entry may have changed or gone while the
        // photo was processed, and the change is made to the entry as it is now.
        ({ current, updated } = await transaction(async () => {
          const current = await repo.findById(id);
          if (!current) throw notFound(ENTRY_NOT_FOUND);
          const row = await repo.update(id, {
            ...mergeChanges(current, changes),
            ...photoChange,
            updatedAt: new Date(now()),
          });
          if (row) await announceChange(row, federationChange(current, row) ?? 'Update');
          return { current, updated: row };
        }));
      } catch (error) {
        await media.remove(newPhoto);
        throw error;
      }
      if (!updated) {
        await media.remove(newPhoto);
        throw notFound(ENTRY_NOT_FOUND);
      }
      if ('photoPath' in photoChange && current.photoPath !== updated.photoPath) {
        await media.remove(current.photoPath);
      }
      return viewOf(viewer, await load(id));
    },

    async remove(viewer: Viewer, id: number): Promise<void> {
      // The entry as it is when deleted: read, checked and deleted in one transaction.
      const files = await transaction(async () => {
        const entry = await load(id);
        assertCanModify(viewer, entry);
        // An entry already out of the fediverse had its Delete sent when it left, if ever.
        await announceDelete(entry, isFederatedEntry(entry));
        const going = (await deps.onDelete?.(entry)) ?? [];
        if (await repo.delete(id)) return [entry.photoPath, ...going];
        throw notFound(ENTRY_NOT_FOUND); // rolls the activity back
      });
      for (const file of files) await media.remove(file);
    },

    /** The caller's own, editable copy of an entry they can see. */
    async clone(viewer: Viewer, id: number, status: BeverageStatus = 'TO_TRY') {
      const source = await loadVisible(viewer, id);
      const photoPath = source.photoPath ? await media.copy(source.photoPath) : null;
      const t = new Date(now());
      return insertEntry({
        userId: viewer.id,
        type: source.type,
        name: source.name,
        subtype: source.subtype,
        makerName: source.makerName,
        rating: status === 'TO_TRY' ? 0 : source.rating || DEFAULT_RATING,
        notes: source.notes,
        status,
        inCellar: false,
        photoPath,
        ...newSetting({}, await defaultVisibilityOf(viewer.id)),
        // The window is about the wine, not whose cellar it is in: the copy keeps it.
        drinkFrom: source.drinkFrom,
        drinkUntil: source.drinkUntil,
        createdAt: t,
        updatedAt: t,
      });
    },
  };
}

export type BeverageService = ReturnType<typeof createBeverageService>;
