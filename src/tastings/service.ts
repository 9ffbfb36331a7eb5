import type { EntryFederationChange } from '../beverages/entry-visibility.ts';
import type { BeverageRepository, BeverageWithOwner } from '../beverages/repository.ts';
import type { BeverageRow, Role, TastingRow } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { notFound } from '../domain-error.ts';
import { PHOTO, writeWithPhoto, type MediaStore } from '../media/images.ts';
import type { VisibilityPolicy } from '../visibility/policy.ts';
import type { TastingActivities } from './activities.ts';
import type { TastingRepository } from './repository.ts';

export const ENTRY_NOT_FOUND = 'Beverage not found';
export const TASTING_NOT_FOUND = 'Tasting not found';

export interface TastingViewer {
  id: number;
  role: Role;
}

/** A tasting's fields as the routes parse them (JSON or form). */
export interface TastingInput {
  tastedOn?: string | undefined;
  rating?: number | null | undefined;
  notes?: string | undefined;
}

/** What a change does to the photo: a new one, or taking it away. */
export interface PhotoChange {
  replace?: Uint8Array | undefined;
  remove?: boolean | undefined;
}

/**
 * Tastings of an entry (docs/cellar.md, "Tastings"): whoever may see the entry reads them (the
 * visibility policy); only its owner writes them (anyone else, admins too, is told the entry is
 * not found). Each write records its activity (`activities`: the followers' feeds, and the
 * fediverse as a Note) in its transaction. Photo files are written whole before the row names
 * them and deleted only after it no longer does, as entry photos are (src/beverages/service.ts).
 */
export function createTastingService(deps: {
  repo: TastingRepository;
  entries: Pick<BeverageRepository, 'findById' | 'forgetJson'>;
  visibility: Pick<VisibilityPolicy, 'canSee'>;
  media: Pick<MediaStore, 'save' | 'remove'>;
  activities: TastingActivities;
  transaction: Transaction;
  now: () => number;
}) {
  const { repo, entries, visibility, media, activities, transaction, now } = deps;

  async function ownEntry(viewer: TastingViewer, beverageId: number): Promise<BeverageWithOwner> {
    const entry = await entries.findById(beverageId);
    if (!entry || entry.userId !== viewer.id) throw notFound(ENTRY_NOT_FOUND);
    return entry;
  }

  async function tastingOf(beverageId: number, tastingId: number): Promise<TastingRow> {
    const tasting = await repo.find(beverageId, tastingId);
    if (!tasting) throw notFound(TASTING_NOT_FOUND);
    return tasting;
  }

  const withPhoto = <T>(photoPath: string | null, write: () => Promise<T>) =>
    writeWithPhoto(media, photoPath, write);

  return {
    /** The entry's tastings, newest first, for whoever may see the entry. */
    async list(viewer: TastingViewer, beverageId: number): Promise<TastingRow[]> {
      const entry = await entries.findById(beverageId);
      if (!entry || !(await visibility.canSee(viewer, entry))) throw notFound(ENTRY_NOT_FOUND);
      return repo.listForEntry(beverageId);
    },

    /** Logs a tasting of the viewer's own entry; its day is today (UTC) unless given. */
    async create(
      viewer: TastingViewer,
      beverageId: number,
      input: TastingInput,
      photo?: Uint8Array,
    ): Promise<TastingRow> {
      await ownEntry(viewer, beverageId); // refuse before the slow photo work
      const photoPath = photo ? await media.save(photo, PHOTO) : null;
      return withPhoto(photoPath, () =>
        transaction(async () => {
          const entry = await ownEntry(viewer, beverageId);
          const at = new Date(now());
          const row = await repo.insert({
            beverageId,
            userId: viewer.id,
            tastedOn: input.tastedOn ?? at.toISOString().slice(0, 10),
            rating: input.rating ?? null,
            notes: input.notes ?? '',
            photoPath,
            vintage: null,
            opened: false,
            createdAt: at,
            updatedAt: at,
          });
          entries.forgetJson(beverageId); // its tastingCount
          await activities.written(row, entry);
          return row;
        }),
      );
    },

    /** Changes a tasting's fields and photo; a field left out stays as it is. */
    async change(
      viewer: TastingViewer,
      beverageId: number,
      tastingId: number,
      input: TastingInput,
      photo: PhotoChange = {},
    ): Promise<TastingRow> {
      await ownEntry(viewer, beverageId);
      await tastingOf(beverageId, tastingId);
      const newPhoto = photo.replace ? await media.save(photo.replace, PHOTO) : null;
      const photoChange =
        newPhoto !== null ? { photoPath: newPhoto } : photo.remove ? { photoPath: null } : {};
      const { before, after } = await withPhoto(newPhoto, () =>
        transaction(async () => {
          const entry = await ownEntry(viewer, beverageId);
          const current = await tastingOf(beverageId, tastingId);
          const updated = (await repo.update(tastingId, {
            ...(input.tastedOn !== undefined && { tastedOn: input.tastedOn }),
            ...(input.rating !== undefined && { rating: input.rating }),
            ...(input.notes !== undefined && { notes: input.notes }),
            ...photoChange,
            updatedAt: new Date(now()),
          }))!;
          await activities.changed(updated, entry);
          return { before: current, after: updated };
        }),
      );
      if ('photoPath' in photoChange && before.photoPath !== after.photoPath) {
        await media.remove(before.photoPath);
      }
      return after;
    },

    /** Deletes a tasting and its photo. */
    async remove(viewer: TastingViewer, beverageId: number, tastingId: number): Promise<void> {
      const deleted = await transaction(async () => {
        const entry = await ownEntry(viewer, beverageId);
        const tasting = await tastingOf(beverageId, tastingId);
        await activities.deleted(tasting, entry);
        await repo.delete(tasting.id);
        entries.forgetJson(beverageId); // its tastingCount
        return tasting;
      });
      await media.remove(deleted.photoPath);
    },

    /**
     * The entry leaves the fediverse, or comes back into it (in the transaction of the change,
     * `reentry` being the id of the entry's activity that brings it back): its tastings' Notes
     * follow its own, withdrawn by a Delete each or sent again as a Create each.
     */
    async entryFederationChanged(entry: BeverageRow, change: EntryFederationChange): Promise<void> {
      for (const tasting of await repo.listForEntry(entry.id)) {
        if (change.kind === 'left') await activities.withdrawn(tasting, entry);
        else await activities.returned(tasting, entry, change.reentry);
      }
    },

    /**
     * The entry is being deleted, its tastings with it (in its transaction, through the foreign
     * key): their Notes are withdrawn, and the photo files to delete once it commits are
     * answered.
     */
    async entryDeleted(entry: BeverageRow): Promise<string[]> {
      const photos: string[] = [];
      for (const tasting of await repo.listForEntry(entry.id)) {
        await activities.deleted(tasting, entry);
        if (tasting.photoPath) photos.push(tasting.photoPath);
      }
      return photos;
    },
  };
}

export type TastingService = ReturnType<typeof createTastingService>;
