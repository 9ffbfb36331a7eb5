import fs from 'node:fs';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import yazl from 'yazl';
import { EXPORT_CELLAR_NAME, EXPORT_TASTINGS_NAME } from '../../contract/export-cellar.ts';
import {
  EXPORT_CSV_NAME,
  EXPORT_FORMAT,
  EXPORT_JSON_NAME,
  EXPORT_VERSION,
  type ExportEntry,
} from '../../contract/export.ts';
import type { ExportCellarRepository, Page } from './cellar-repository.ts';
import type { ExportRow } from './repository.ts';
import { CSV_HEAD, csvRows, photoNameInZip, toExportEntry } from './rows.ts';

/** The user's cellar, read as the export's files need it (the user already bound). */
export type CellarSource = {
  [K in keyof ExportCellarRepository]: ExportCellarRepository[K] extends (
    userId: number,
    ...rest: infer A
  ) => infer R
    ? (...rest: A) => R
    : never;
};

/** Entries read per page: small enough to keep memory flat, large enough to be quick. */
export const PAGE_SIZE = 500;

export interface ArchiveSource {
  user: { username: string; fullName: string };
  exportedAt: Date;
  /** One page of the user's entries with ids above `afterId`, in id order. */
  page(afterId: number, limit: number): Promise<ExportRow[]>;
  /** The file of a stored photo ('media/…'), or undefined when the path is not one. */
  locatePhoto(storedPath: string): string | undefined;
  /** Places, bottle lines, bottle events and tastings, for cellar.json and tastings.json. */
  cellar: CellarSource;
}

/**
 * The export ZIP as a stream: entries.csv, entries.json, cellar.json, tastings.json, then
 * photos/… (the entries' and the tastings'), each produced as the reader takes the bytes (yazl pipes with back-pressure). The entries are read twice, a page
 * at a time (once per file), and the photos are opened one at a time as their turn comes, so
 * memory stays flat whatever the size of the vault. Photos are stored uncompressed (JPEG does
 * not shrink); the text files are deflated.
 *
 * Each page is read when its turn comes, not in one snapshot: an entry edited during the
 * export may differ between the two files; a photo whose file is gone is left out.
 */
export function exportArchive(source: ArchiveSource): Readable {
  const zip = new yazl.ZipFile();
  const mtime = source.exportedAt;
  const output = zip.outputStream as Readable;
  let finished = false;
  let abandoned = false;
  /**
   * What yazl is reading from now: closed at once when the reader goes away. yazl does not
   * listen for a read stream's errors: one (a page that could not be read) ends the download
   * with that error, instead of going unheard.
   */
  let reading: Readable | undefined;
  const readFrom = (stream: Readable) => {
    stream.on('error', (error) => output.destroy(error));
    return (reading = stream);
  };
  output.once('end', () => (finished = true));
  // The reader went away (a closed download): stop reading pages, close the file being read
  // and open no more photos.
  output.once('close', () => {
    abandoned = !finished;
    if (abandoned) reading?.destroy();
  });

  async function* pages(): AsyncGenerator<ExportRow[]> {
    let afterId = 0;
    for (;;) {
      if (abandoned) return;
      const rows = await source.page(afterId, PAGE_SIZE);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < PAGE_SIZE) return;
      afterId = rows[rows.length - 1]!.id;
      await nextTurn(); // let other requests run between pages
    }
  }

  function storedFile(storedPath: string | null): string | undefined {
    if (!storedPath) return undefined;
    const file = source.locatePhoto(storedPath);
    return file && fs.existsSync(file) ? file : undefined;
  }
  const photoFile = (row: ExportRow) => storedFile(row.photo_path);
  /** Photo names already in the ZIP (two rows may name one file). */
  const added = new Set<string>();

  async function* csv(): AsyncGenerator<string> {
    yield CSV_HEAD;
    for await (const rows of pages()) {
      yield csvRows(rows.map((row) => toExportEntry(row, photoFile(row) !== undefined)));
    }
  }

  function addPhoto(file: string, name: string) {
    zip.addReadStreamLazy(name, { compress: false, mtime }, (done) => {
      if (abandoned) return done(null, Readable.from([]));
      fs.promises.open(file).then(
        (handle) => {
          const stream = readFrom(handle.createReadStream());
          if (abandoned) stream.destroy();
          done(null, stream);
        },
        // Deleted since it was listed (the entry's photo replaced meanwhile): an empty file.
        () => done(null, Readable.from([])),
      );
    });
  }

  async function* json(): AsyncGenerator<string> {
    const head = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: source.exportedAt.toISOString(),
      user: source.user,
    };
    yield JSON.stringify(head).slice(0, -1) + ',"entries":[\n';
    let first = true;
    for await (const rows of pages()) {
      const lines: string[] = [];
      for (const row of rows) {
        const file = photoFile(row);
        const entry: ExportEntry = toExportEntry(row, file !== undefined);
        if (file && entry.photo && !added.has(entry.photo)) {
          added.add(entry.photo);
          addPhoto(file, entry.photo);
        }
        lines.push(JSON.stringify(entry));
      }
      yield (first ? '' : ',\n') + lines.join(',\n');
      first = false;
    }
    yield '\n]}\n';
  }

  /** The rows of a paged read as the inside of a JSON array, a page at a time. */
  async function* jsonArray<T>(
    read: (afterId: number, limit: number) => Promise<Page<T>>,
    each: (row: T) => string,
  ): AsyncGenerator<string> {
    let afterId = 0;
    let first = true;
    for (;;) {
      if (abandoned) return;
      const { rows, lastId } = await read(afterId, PAGE_SIZE);
      if (rows.length) yield (first ? '\n' : ',\n') + rows.map(each).join(',\n');
      first = false;
      if (rows.length < PAGE_SIZE) return;
      afterId = lastId;
      await nextTurn();
    }
  }

  async function* cellarJson(): AsyncGenerator<string> {
    yield `{"places":${JSON.stringify(await source.cellar.places())},"bottles":[`;
    yield* jsonArray(source.cellar.bottles, (b) => JSON.stringify(b));
    yield '\n],"bottleEvents":[';
    yield* jsonArray(source.cellar.events, (e) => JSON.stringify(e));
    yield '\n]}\n';
  }

  async function* tastingsJson(): AsyncGenerator<string> {
    yield '{"tastings":[';
    yield* jsonArray(source.cellar.tastings, ({ photoPath, ...tasting }) => {
      const file = storedFile(photoPath);
      const photo = file && photoPath ? photoNameInZip(photoPath) : null;
      if (file && photo && !added.has(photo)) {
        added.add(photo);
        addPhoto(file, photo);
      }
      return JSON.stringify({ ...tasting, photo });
    });
    yield '\n]}\n';
    // Every photo has been added by now: the entries' and the tastings'.
    zip.end();
  }

  zip.addReadStreamLazy(EXPORT_CSV_NAME, { mtime }, (done) =>
    done(null, readFrom(Readable.from(csv(), { objectMode: false }))),
  );
  zip.addReadStreamLazy(EXPORT_JSON_NAME, { mtime }, (done) =>
    done(null, readFrom(Readable.from(json(), { objectMode: false }))),
  );
  zip.addReadStreamLazy(EXPORT_CELLAR_NAME, { mtime }, (done) =>
    done(null, readFrom(Readable.from(cellarJson(), { objectMode: false }))),
  );
  zip.addReadStreamLazy(EXPORT_TASTINGS_NAME, { mtime }, (done) =>
    done(null, readFrom(Readable.from(tastingsJson(), { objectMode: false }))),
  );
  zip.on('error', (error: Error) => output.destroy(error));
  return output;
}
