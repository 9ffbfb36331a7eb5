import type { MediaStore } from '../src/media/images.ts';
import { capabilityUrl, type PhotoCapabilities } from '../src/media/capabilities.ts';
import type { TastingRow } from '../src/db/schema/index.ts';
import type { FederatedEntryRow } from './entry-rows.ts';
import type { NoteAuthor, NoteInput } from './note.ts';
import type { NoteTasting, TastingNoteInput } from './tasting-note.ts';

interface Size {
  width: number;
  height: number;
}

/** Photo sizes kept in memory: stored names are random and a stored photo never changes. */
const SIZE_CACHE = 2_000;

/**
 * Entries as Note input (note.ts): the photo by its capability URL (src/media/capabilities.ts)
 * with its width and height read from the stored JPEG's header (sharp, loaded with the first
 * photo), remembered per stored photo.
 */
export function createEntryNotes(deps: {
  origin: string;
  capabilities: PhotoCapabilities;
  media: Pick<MediaStore, 'locate'>;
}) {
  const { origin, capabilities, media } = deps;
  const sizes = new Map<string, Size>();

  async function sizeOf(storedPath: string): Promise<Size | undefined> {
    const known = sizes.get(storedPath);
    if (known) return known;
    const file = media.locate(storedPath);
    if (!file) return undefined;
    try {
      // Loaded with the first photo, as src/media/images.ts does (no libvips cache either).
      const { default: sharp } = await import('sharp');
      sharp.cache(false);
      const { width, height } = await sharp(file).metadata();
      if (!width || !height) return undefined;
      if (sizes.size >= SIZE_CACHE) sizes.delete(sizes.keys().next().value!);
      sizes.set(storedPath, { width, height });
      return { width, height };
    } catch {
      return undefined; // an unreadable file: the Note goes without its photo
    }
  }

  return {
    async input(entry: FederatedEntryRow, author: NoteAuthor): Promise<NoteInput> {
      let photo: NoteInput['entry']['photo'] = null;
      if (entry.photoPath) {
        const size = await sizeOf(entry.photoPath);
        if (size) {
          const token = await capabilities.tokenFor(entry.id, entry.photoPath);
          photo = { url: capabilityUrl(origin, token), ...size };
        }
      }
      return { entry: { ...entry, photo }, author, origin };
    },

    /** A tasting of a federated entry as Note input (tasting-note.ts), its photo likewise. */
    async tastingInput(
      tasting: TastingRow,
      entry: FederatedEntryRow,
      author: NoteAuthor,
    ): Promise<TastingNoteInput> {
      let photo: NoteTasting['photo'] = null;
      if (tasting.photoPath) {
        const size = await sizeOf(tasting.photoPath);
        if (size) {
          const token = await capabilities.tokenForTasting(tasting.id, tasting.photoPath);
          photo = { url: capabilityUrl(origin, token), ...size };
        }
      }
      const { type, name, subtype, makerName } = entry;
      return {
        tasting: { ...tasting, photo, entry: { type, name, subtype, makerName } },
        generation: entry.noteGeneration,
        author,
        origin,
      };
    },
  };
}

export type EntryNotes = ReturnType<typeof createEntryNotes>;
