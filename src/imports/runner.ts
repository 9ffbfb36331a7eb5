import { entryBasicsOf } from '../../contract/entry-basics.ts';
import type { ImportReportRow } from '../../contract/imports.ts';
import { newSetting } from '../beverages/entry-visibility.ts';
import type { NewBeverage, BeverageRepository } from '../beverages/repository.ts';
import type { Visibility } from '../db/schema/index.ts';
import type { UserRepository } from '../users/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import { DomainError } from '../domain-error.ts';
import { logger } from '../logger.ts';
import { MAX_IMAGE_BYTES, PHOTO, type MediaStore } from '../media/images.ts';
import type { CellarWrites } from './cellar-writes.ts';
import { openRows } from './row-sources.ts';
import type { ImportRepository } from './repository.ts';
import { createShareRestorer } from './restored-shares.ts';
import type { ShareRepository } from '../shares/repository.ts';
import type { MapResult, MappedRow } from './rows.ts';
import type { ImportStore, JobState } from './store.ts';
import type { VaultZip } from './zip-source.ts';

// The ZIP reader (yauzl) loads with the first import that needs it.
const zipSource = () => import('./zip-source.ts');

/** Rows per batch: one transaction each, then the event loop gets its turn. */
export const IMPORT_BATCH_ROWS = 200;

export interface RunnerDeps {
  store: ImportStore;
  entries: BeverageRepository;
  keys: ImportRepository;
  users: UserRepository;
  media: MediaStore;
  /** Restores the shares of the vault's own export (rows alone: no invitation, no activity). */
  shares: ShareRepository;
  /** Writes the places, bottle lines, bottle events and tastings an entry brings. */
  cellar: CellarWrites;
  transaction: Transaction;
  now: () => number;
  batchRows?: number;
}

const DUPLICATE = 'Already in the vault: an entry with the same name, maker and subtype';

const keyOf = (r: { name: string; makerName: string; subtype: string }) =>
  `${r.name.trim().toLowerCase()}\u0000${r.makerName.trim().toLowerCase()}\u0000${r.subtype}`;

const unreadable = (error: unknown) =>
  error instanceof DomainError ? error.message : 'it could not be read';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs import jobs one at a time, in batches: each batch's report lines are appended first,
 * then its new entries (with the shares a vault export restores and the places, bottles, bottle
 * events and tastings they bring) are written in one transaction
 * straight through the repositories, so no activity is recorded for them (they reach no
 * follower, feed, notification or remote server); then job.json records the batch and the
 * event loop gets its turn. A job stopped half-way (shutdown, crash) goes on from its last
 * recorded batch. The report lines past it belong to the batch the stop interrupted: a row
 * they call imported whose entry is in the vault was written by that batch's transaction
 * before the stop, and is reported as imported again (not as a duplicate of itself); if the
 * transaction never committed, its rows are imported anew. Nothing is imported twice.
 */
export function createImportRunner(deps: RunnerDeps) {
  const { store, entries, keys, media, cellar, transaction, now } = deps;
  /** Row number → outcome, for the job under way (a `part` row follows its wine's row). */
  const outcomes = new Map<number, ImportReportRow>();

  /** The report line of a row whose bottles went into the entry of an earlier row. */
  function partOf(
    row: number,
    part: { name: string; of: number },
    batch: readonly ImportReportRow[],
  ): ImportReportRow {
    const first = batch.find((l) => l.row === part.of) ?? outcomes.get(part.of);
    if (first?.outcome === 'IMPORTED') {
      return {
        row,
        name: part.name,
        outcome: 'IMPORTED',
        reason: `A bottle of the entry of row ${part.of}`,
      };
    }
    if (first?.outcome === 'REFUSED') return { ...first, row, name: part.name };
    return { row, name: part.name, outcome: 'DUPLICATE', reason: DUPLICATE };
  }

  const restorer = createShareRestorer({ users: deps.users, shares: deps.shares });
  const batchRows = deps.batchRows ?? IMPORT_BATCH_ROWS;
  const queue: string[] = [];
  let running: Promise<void> | null = null;
  let stopping = false;
  const idleWaiters: (() => void)[] = [];

  async function savePhoto(zip: VaultZip | null, photo: string | null): Promise<string | null> {
    if (!zip || !photo) return null;
    const entry = zip.files.get(photo);
    if (!entry) return null;
    // A photo the vault stored (and exported) comes back byte for byte; any other is re-encoded.
    const { readZipFile } = await zipSource();
    return media.saveKeepingStoredForm(await readZipFile(zip, entry, MAX_IMAGE_BYTES), PHOTO);
  }

  /** The report lines past `processed` (the batch a stop interrupted), by row number. */
  async function interrupted(job: JobState): Promise<Map<number, ImportReportRow>> {
    const tail = (await store.readReport(job.id)).slice(job.processed);
    return new Map(tail.filter((r) => r.row > job.processed).map((r) => [r.row, r]));
  }

  async function applyBatch(
    job: JobState,
    batch: MapResult[],
    known: Set<string>,
    zip: VaultZip | null,
    ownerDefault: Visibility,
    before: Map<number, ImportReportRow> | null,
  ) {
    const report: ImportReportRow[] = [];
    const pending: {
      values: NewBeverage;
      recipients: number[];
      row: MappedRow;
      tastingPhotos: (string | null)[];
    }[] = [];
    for (const [i, result] of batch.entries()) {
      const row = job.processed + i + 1;
      if (result.ok === 'part') {
        const line = partOf(row, result, report);
        report.push(line);
        continue;
      }
      if (!result.ok) {
        report.push({ row, name: result.name, outcome: 'REFUSED', reason: result.reason });
        continue;
      }
      const r = result.row;
      const key = keyOf(r);
      const earlier = before?.get(row);
      if (earlier?.outcome === 'IMPORTED' && known.has(key)) {
        report.push(earlier); // written by the interrupted batch's transaction
        continue;
      }
      if (known.has(key)) {
        report.push({ row, name: r.name, outcome: 'DUPLICATE', reason: DUPLICATE });
        continue;
      }
      let photoPath: string | null = null;
      const remarks: string[] = [];
      const shared = await restorer.resolve(job.userId, r.sharedWith ?? []);
      if (shared.remark) remarks.push(shared.remark);
      try {
        photoPath = await savePhoto(zip, r.photo);
      } catch (error) {
        remarks.unshift(`Imported without its photo: ${unreadable(error)}`);
      }
      const tastingPhotos: (string | null)[] = [];
      for (const tasting of r.tastings ?? []) {
        try {
          tastingPhotos.push(await savePhoto(zip, tasting.photo));
        } catch (error) {
          tastingPhotos.push(null);
          remarks.push(`A tasting of ${tasting.tastedOn} without its photo: ${unreadable(error)}`);
        }
      }
      known.add(key);
      const created = new Date(r.createdAt ?? now());
      const values: NewBeverage = {
        userId: job.userId,
        ...entryBasicsOf(r),
        rating: r.status === 'TO_TRY' ? 0 : r.rating,
        photoPath,
        drinkFrom: r.drinkFrom ?? null,
        drinkUntil: r.drinkUntil ?? null,
        ...newSetting(r.visibility ?? {}, ownerDefault),
        createdAt: created,
        updatedAt: r.updatedAt ? new Date(r.updatedAt) : created,
      };
      pending.push({ values, recipients: shared.recipients, row: r, tastingPhotos });
      const reason = remarks.length ? remarks.join('. ') : null;
      report.push({ row, name: r.name, outcome: 'IMPORTED', reason });
    }
    // The report first: lines past job.processed tell a resumed job what this batch did.
    if (before) await store.replaceReportFrom(job.id, job.processed, report);
    else await store.appendReport(job.id, report);
    try {
      const at = now();
      cellar.startBatch();
      // The transaction awaits only the database: the photos were saved before it.
      await transaction(async () => {
        for (const { values, recipients, row, tastingPhotos } of pending) {
          const entry = await entries.insert(values);
          await restorer.restore(entry.id, job.userId, recipients, at);
          await cellar.write(entry.id, job.userId, row, tastingPhotos, at);
        }
      });
    } catch (error) {
      const photos = pending.flatMap((p) => [p.values.photoPath, ...p.tastingPhotos]);
      await Promise.all(photos.map((photo) => media.remove(photo)));
      await store.truncateReport(job.id, job.processed);
      throw error;
    }
    job.processed += batch.length;
    for (const line of report) {
      outcomes.set(line.row, line);
      if (line.outcome === 'IMPORTED') job.imported++;
      else if (line.outcome === 'DUPLICATE') job.duplicates++;
      else job.refused++;
    }
    await store.save(job);
  }

  async function run(id: string): Promise<void> {
    const job = await store.load(id);
    if (!job || job.status === 'DONE' || job.status === 'FAILED') return;
    job.status = 'RUNNING';
    await store.save(job);
    restorer.reset();
    outcomes.clear();
    for (const line of (await store.readReport(job.id)).slice(0, job.processed)) {
      outcomes.set(line.row, line);
    }
    let zip: VaultZip | null = null;
    try {
      const known = new Set((await keys.entryKeysOf(job.userId)).map(keyOf));
      // Imported entries get the owner's default visibility, as new entries do.
      const ownerDefault = (await deps.users.findById(job.userId))?.defaultVisibility ?? 'MEMBERS';
      let before: Map<number, ImportReportRow> | null = await interrupted(job);
      const opened = await openRows(store.sourcePath(job), job);
      zip = opened.zip;
      let batch: MapResult[] = [];
      for await (const result of opened.rows) {
        batch.push(result);
        if (batch.length < batchRows) continue;
        await applyBatch(job, batch, known, zip, ownerDefault, before);
        before = null;
        batch = [];
        if (stopping) return; // left RUNNING: resumed at the next start
        await nextTurn();
      }
      if (batch.length) await applyBatch(job, batch, known, zip, ownerDefault, before);
      job.status = 'DONE';
      job.total = job.processed;
    } catch (error) {
      job.status = 'FAILED';
      job.message =
        error instanceof DomainError ? error.message : 'The import stopped on an unexpected error';
      if (!(error instanceof DomainError)) {
        logger.error('Import {id} failed: {error}', { id, error });
      }
    } finally {
      zip?.zip.close();
    }
    job.finishedAt = new Date(now()).toISOString();
    await store.save(job);
    await store.removeSource(job);
  }

  function pump() {
    if (running || stopping) return;
    const id = queue.shift();
    if (id === undefined) {
      for (const resolve of idleWaiters.splice(0)) resolve();
      return;
    }
    running = run(id)
      .catch((error: unknown) => logger.error('Import {id} failed: {error}', { id, error }))
      .finally(() => {
        running = null;
        pump();
      });
  }

  return {
    enqueue(id: string) {
      queue.push(id);
      pump();
    },

    /** Resolves once no job is queued or running (for tests and benchmarks). */
    idle(): Promise<void> {
      if (!running && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    /** Lets the current batch finish; the job stays RUNNING on disk and is resumed at start. */
    async stop(): Promise<void> {
      stopping = true;
      await running;
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;
