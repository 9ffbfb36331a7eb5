import fs from 'node:fs';
import type { BeverageStatus, Role } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { DomainError, notFound } from '../domain-error.ts';
import type { BeverageService } from '../beverages/service.ts';
import { logger } from '../logger.ts';
import { PHOTO, writeWithPhoto, type MediaStore } from '../media/images.ts';
import type { FeedRepository } from '../feed/repository.ts';
import type { RemoteEntryFields, RemoteEntryRecord, RemoteEntryRepository } from './repository.ts';

/** An entry as the inbox read it from a Note (federation/inbox/), validated and normalised. */
export interface IncomingEntry extends RemoteEntryFields {
  noteUri: string;
  /** The photo attachment's URL on the remote server, or null. */
  photoUrl: string | null;
}

/** What became of a received Create, Update or Delete (for logs and tests). */
export type ReceiveOutcome = 'stored' | 'updated' | 'removed' | 'unchanged' | 'ignored';

/**
 * The photo of an incoming entry: `keep` the stored copy (the URL did not change), none, or
 * the bytes downloaded from the remote server (checked and re-encoded here, as an upload is).
 */
export type IncomingPhoto = { keep: true } | { bytes: Uint8Array | undefined };

const NOT_FOUND = 'Entry not found';

/**
 * Entries received from remote vaults (docs/federation.md, "Receiving entries"). The inbox
 * (federation/inbox/) checks who sent what and downloads the photo; this stores the entry, puts
 * it into the feeds of the local users who follow its actor, changes and removes it, and clones
 * it into a user's own vault. The photo is the vault's own copy: re-encoded like an upload
 * (src/media/images.ts), written whole before the row names it and deleted after it no longer
 * does.
 */
export function createRemoteEntryService(deps: {
  repo: RemoteEntryRepository;
  feed: FeedRepository;
  media: MediaStore;
  beverages: BeverageService;
  transaction: Transaction;
  now?: () => number;
}) {
  const { repo, feed, media, beverages, transaction } = deps;
  const now = deps.now ?? Date.now;

  /** Stores downloaded photo bytes as the vault's own image; null when they are not one. */
  async function savePhoto(noteUri: string, bytes: Uint8Array | undefined): Promise<string | null> {
    if (!bytes) return null;
    try {
      return await media.save(bytes, PHOTO);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      logger.info('The photo of {note} was refused: {reason}', {
        note: noteUri,
        reason: error.message,
      });
      return null;
    }
  }

  const withPhoto = <T>(photoPath: string | null, write: () => Promise<T>) =>
    writeWithPhoto(media, photoPath, write);

  return {
    /** The actor row of a remote actor some local user follows (ACCEPTED), or undefined. */
    followedActorId(actorUri: string): Promise<number | undefined> {
      return repo.followedActorId(actorUri);
    },

    /** A stored entry by its Note id. */
    find(noteUri: string): Promise<RemoteEntryRecord | undefined> {
      return repo.findByNote(noteUri);
    },

    /**
     * A new entry from `actorId`: stored with its photo and put into the feeds of the actor's
     * local followers. An entry already stored (a replayed Create) is left as it is.
     */
    async store(actorId: number, entry: IncomingEntry, photo: Uint8Array | undefined) {
      if (await repo.findByNote(entry.noteUri)) return 'unchanged' satisfies ReceiveOutcome;
      const photoPath = await savePhoto(entry.noteUri, photo);
      const stored = await withPhoto(photoPath, () =>
        transaction(async () => {
          const receivedAt = now();
          const ids = await repo.insert({
            actorId,
            noteUri: entry.noteUri,
            fields: entry,
            photoUrl: photoPath ? entry.photoUrl : null,
            photoPath,
            receivedAt,
          });
          if (!ids) return false;
          await feed.fanOutRemote({
            activityId: ids.activityId,
            actorId,
            remoteEntryId: ids.entryId,
            createdAt: receivedAt,
          });
          return true;
        }),
      );
      if (!stored) {
        await media.remove(photoPath); // stored meanwhile by another delivery of the same Note
        return 'unchanged' satisfies ReceiveOutcome;
      }
      return 'stored' satisfies ReceiveOutcome;
    },

    /**
     * Changes a stored entry when the edit is newer than what is stored (a replayed or late
     * Update changes nothing). `current` is what `find` gave.
     */
    async update(current: RemoteEntryRecord, entry: IncomingEntry, photo: IncomingPhoto) {
      if (entry.updatedAt.getTime() <= current.updatedAt.getTime()) {
        return 'unchanged' satisfies ReceiveOutcome;
      }
      const newPath =
        'keep' in photo ? current.photoPath : await savePhoto(entry.noteUri, photo.bytes);
      const photoUrl = 'keep' in photo ? current.photoUrl : newPath ? entry.photoUrl : null;
      const changed = await withPhoto(newPath === current.photoPath ? null : newPath, () =>
        repo.update(current.id, entry, { photoUrl, photoPath: newPath }),
      );
      if (!changed) {
        if (newPath !== current.photoPath) await media.remove(newPath);
        return 'unchanged' satisfies ReceiveOutcome;
      }
      if (newPath !== current.photoPath) await media.remove(current.photoPath);
      return 'updated' satisfies ReceiveOutcome;
    },

    /** Removes a stored entry, its feed items and its photo copy. */
    async remove(current: RemoteEntryRecord) {
      if (!(await repo.remove(current.id))) return 'unchanged' satisfies ReceiveOutcome;
      await media.remove(current.photoPath);
      return 'removed' satisfies ReceiveOutcome;
    },

    /**
     * Removes the stored entries of a remote actor that no local user follows any more (after
     * an unfollow, a Reject or an Undo), or of any actor when `always` (before the actor's row
     * is deleted: the rows would go by cascade, but not the photo files). Returns how many.
     */
    async forgetActor(actorUri: string, options: { always?: boolean } = {}): Promise<number> {
      // The check that nobody follows the actor and the removal in one transaction (a follow
      // accepted meanwhile keeps the entries); the photo files go once their rows are gone.
      const removed = await transaction(async () => {
        if (!options.always && (await repo.followedActorId(actorUri)) !== undefined) return [];
        const gone: RemoteEntryRecord[] = [];
        for (const entry of await repo.ofActor(actorUri)) {
          if (await repo.remove(entry.id)) gone.push(entry);
        }
        return gone;
      });
      for (const entry of removed) await media.remove(entry.photoPath);
      return removed.length;
    },

    /** Every local photo copy of a remote entry (the uploads sweep must keep them). */
    allPhotoPaths(): Promise<string[]> {
      return repo.allPhotoPaths();
    },

    /** Entries by id with their actors, for the feed. */
    byIds(ids: readonly number[]): Promise<RemoteEntryRecord[]> {
      return repo.byIds(ids);
    },

    /**
     * 'Add to vault': the caller's own copy of a remote entry in their feed (the photo stored
     * again as a new file of theirs), in the list `status` (TO_TRY by default), as the clone of
     * a local entry. 404 for an entry not in the caller's feed.
     */
    async clone(viewer: { id: number; role: Role }, id: number, status: BeverageStatus = 'TO_TRY') {
      const source = await repo.findById(id);
      if (!source || !(await feed.holdsRemoteEntry(viewer.id, id))) throw notFound(NOT_FOUND);
      const file = source.photoPath ? media.locate(source.photoPath) : undefined;
      const photo = file ? await readFileOrUndefined(file) : undefined;
      return beverages.create(
        viewer,
        {
          type: source.type,
          name: source.name,
          subtype: source.subtype,
          makerName: source.makerName,
          // As a local clone: a to-try copy has no rating; a tried one keeps the source's.
          ...(status === 'TRIED' && source.rating > 0 && { rating: source.rating }),
          notes: source.notes,
          status,
          inCellar: false,
        },
        photo,
      );
    },
  };
}

function readFileOrUndefined(file: string): Promise<Uint8Array | undefined> {
  return fs.promises.readFile(file).catch(() => undefined);
}

export type RemoteEntryService = ReturnType<typeof createRemoteEntryService>;
