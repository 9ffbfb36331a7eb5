import { randomBytes } from 'node:crypto';
import type { CapabilityRepository } from './capability-repository.ts';

/** Where capability URLs live: {origin}/media/f/{token}.jpg. */
export const CAPABILITY_PREFIX = '/media/f/';

/** 32 random bytes, base64url: 43 characters, unguessable. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The file name of a capability URL ('{token}.jpg') back to its token, if it is one. */
export function tokenOfFileName(fileName: string): string | undefined {
  if (!fileName.endsWith('.jpg')) return undefined;
  const token = fileName.slice(0, -'.jpg'.length);
  return TOKEN.test(token) ? token : undefined;
}

export function capabilityUrl(origin: string, token: string): string {
  return new URL(`${CAPABILITY_PREFIX}${token}.jpg`, origin).href;
}

/**
 * Capability URLs for the bottle photos of federated entries. The servers an entry is sent to
 * fetch its photo without a session (Mastodon downloads it when the post arrives), so the Note
 * names an unguessable URL instead of the photo's own: the token opens that one photo, only
 * while its entry exists and still has it. A new photo gets a new token (the old URL stops
 * answering); deleting the entry deletes its capability (the foreign key cascades). The photo's
 * own URL under /media/ stays for signed-in users who may see the entry. The photos of
 * federated tastings have capabilities of their own, the same way (one per tasting).
 */
export function createPhotoCapabilities(repo: CapabilityRepository, now: () => number = Date.now) {
  return {
    /** The token for the entry's current photo: the same one as long as the photo is the same. */
    tokenFor(entryId: number, photoPath: string): Promise<string> {
      // A new token, kept only if the entry has none for this photo (read and written at once).
      return repo.tokenFor(entryId, photoPath, randomBytes(32).toString('base64url'), now());
    },

    /** The token for a tasting's current photo (a federated tasting's Note names it). */
    tokenForTasting(tastingId: number, photoPath: string): Promise<string> {
      return repo.tokenForTasting(
        tastingId,
        photoPath,
        randomBytes(32).toString('base64url'),
        now(),
      );
    },

    /** The stored photo ('media/…') a capability URL's file name opens, if any. */
    async photoFor(fileName: string): Promise<string | undefined> {
      const token = tokenOfFileName(fileName);
      return token ? repo.photoOpenedBy(token) : undefined;
    },
  };
}

export type PhotoCapabilities = ReturnType<typeof createPhotoCapabilities>;
