import type { ImportReportRow } from '../../contract/imports.ts';
import { newSetting } from '../beverages/entry-visibility.ts';
import type { NewBeverage, BeverageRepository } from '../beverages/repository.ts';
import type { Visibility } from '../db/schema/index.ts';
import type { UserRepository } from '../users/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import { DomainError } from '../domain-error.ts';
import { logger } from '../logger.ts';
import { MAX_IMAGE_BYTES, PHOTO, type MediaStore } from '../media/images.ts';
import { csvRecords } from './csv-source.ts';
import { CSV_FORMATS } from './formats/index.ts';
import { mapVaultEntry } from './formats/vault.ts';
import type { ImportRepository } from './repository.ts';
import type { MapResult, MappedRow } from './rows.ts';
import type { ImportStore, JobState } from './store.ts';
import { openVaultZip, readVaultExport, readZipFile, type VaultZip } from './zip-source.ts';

/** Rows per batch: one transaction each, then the event loop gets its turn. */
export const IMPORT_BATCH_ROWS = 200;

export interface RunnerDeps {
  store: ImportStore;
  entries: BeverageRepository;
  keys: ImportRepository;
  users: UserRepository;
  media: MediaStore;
  transaction: Transaction;
  now: () => number;
  batchRows?: number;
}

const DUPLICATE = 'Already in the vault: an entry with the same name, maker and subtype';

const keyOf = (r: { name: string; makerName: string; subtype: string }) =>
  `${r.name.trim().toLowerCase()}\u0000${r.makerName.trim().toLowerCase()}\u0000${r.subtype}`;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The rows of a job's file, from the `from`-th, mapped; the ZIP (if any) to read photos from. */
async function openRows(
  deps: RunnerDeps,
  job: JobState,
): Promise<{ rows: AsyncIterable<MapResult>; zip: VaultZip | null }> {
  const file = deps.store.sourcePath(job);
  if (job.format === 'vault') {
    const zip = await openVaultZip(file);
    const data = await readVaultExport(zip);
    const entries = data.entries.slice(job.processed);
    return {
      zip,
      rows: (async function* () {
        for (const entry of entries) yield mapVaultEntry(entry);
      })(),
    };
  }
  const format = CSV_FORMATS.find((f) => f.id === job.format)!;
  const records = csvRecords(file, job.csv!, job.processed);
  return {
    zip: null,
    rows: (async function* () {
      for await (const record of records) yield format.map(record);
    })(),
  };
}

/**
 * Runs import jobs one at a time, in batches: each batch's new entries are written in one
 * transaction straight through the beverage repository, so no activity is recorded for them
 * (they reach no follower, feed or remote server); then the report lines and job.json are
 * written and the event loop gets its turn. A job stopped half-way (shutdown, crash) goes on
 * from its last recorded batch; rows of a batch whose entries were written but not recorded
 * come back as duplicates of themselves, so nothing is imported twice.
 */
export function createImportRunner(deps: RunnerDeps) {
  const { store, entries, keys, media, transaction, now } = deps;
  const batchRows = deps.batchRows ?? IMPORT_BATCH_ROWS;
  const queue: string[] = [];
  let running: Promise<void> | null = null;
  let stopping = false;
  const idleWaiters: (() => void)[] = [];

  async function savePhoto(zip: VaultZip | null, row: MappedRow): Promise<string | null> {
    if (!zip || !row.photo) return null;
    const entry = zip.files.get(row.photo);
    if (!entry) return null;
    return media.save(await readZipFile(zip, entry, MAX_IMAGE_BYTES), PHOTO);
  }

  async function applyBatch(
    job: JobState,
    batch: MapResult[],
    known: Set<string>,
    zip: VaultZip | null,
    ownerDefault: Visibility,
  ) {
    const report: ImportReportRow[] = [];
    const pending: NewBeverage[] = [];
    for (const [i, result] of batch.entries()) {
      const row = job.processed + i + 1;
      if (!result.ok) {
        report.push({ row, name: result.name, outcome: 'REFUSED', reason: result.reason });
        continue;
      }
      const r = result.row;
      const key = keyOf(r);
      if (known.has(key)) {
        report.push({ row, name: r.name, outcome: 'DUPLICATE', reason: DUPLICATE });
        continue;
      }
      let photoPath: string | null = null;
      let remark: string | null = null;
      try {
        photoPath = await savePhoto(zip, r);
      } catch (error) {
        remark = `Imported without its photo: ${error instanceof DomainError ? error.message : 'it could not be read'}`;
      }
      known.add(key);
      const created = new Date(r.createdAt ?? now());
      pending.push({
        userId: job.userId,
        type: r.type,
        name: r.name,
        subtype: r.subtype,
        makerName: r.makerName,
        rating: r.status === 'TO_TRY' ? 0 : r.rating,
        notes: r.notes,
        status: r.status,
        inCellar: r.inCellar,
        photoPath,
        ...newSetting(r.visibility ?? {}, ownerDefault),
        createdAt: created,
        updatedAt: r.updatedAt ? new Date(r.updatedAt) : created,
      });
      report.push({ row, name: r.name, outcome: 'IMPORTED', reason: remark });
    }
    try {
      transaction(() => {
        for (const values of pending) entries.insert(values);
      });
    } catch (error) {
      await Promise.all(pending.map((p) => media.remove(p.photoPath)));
      throw error;
    }
    await store.appendReport(job.id, report);
    job.processed += batch.length;
    for (const line of report) {
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
    await store.truncateReport(id, job.processed);
    await store.save(job);
    let zip: VaultZip | null = null;
    try {
      const known = new Set(keys.entryKeysOf(job.userId).map(keyOf));
      // Imported entries get the owner's default visibility, as new entries do.
      const ownerDefault = deps.users.findById(job.userId)?.defaultVisibility ?? 'MEMBERS';
      const opened = await openRows(deps, job);
      zip = opened.zip;
      let batch: MapResult[] = [];
      for await (const result of opened.rows) {
        batch.push(result);
        if (batch.length < batchRows) continue;
        await applyBatch(job, batch, known, zip, ownerDefault);
        batch = [];
        if (stopping) return; // left RUNNING: resumed at the next start
        await nextTurn();
      }
      if (batch.length) await applyBatch(job, batch, known, zip, ownerDefault);
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
