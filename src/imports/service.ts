import fs from 'node:fs';
import path from 'node:path';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  IMPORT_REPORT_PAGE_MAX,
  type ImportFormat,
  type ImportJob,
  type ImportReport,
  type ImportReportQuery,
} from '../../contract/imports.ts';
import { badRequest, conflict, notFound } from '../domain-error.ts';
import { checkUpload, receiveBody } from './receive.ts';
import { createImportRunner, type RunnerDeps } from './runner.ts';
import { createImportStore, type JobState } from './store.ts';

const JOB_NOT_FOUND = 'Import not found';
/** The imports (and their reports) kept per user; older finished ones are deleted. */
export const IMPORTS_KEPT = 20;

export interface ImportViewer {
  id: number;
}

/** The name of a file uploaded without one. */
function defaultName(checked: { format: string; source: string }): string {
  if (checked.format === 'vault') return 'vault.zip';
  return checked.source.endsWith('.zip') ? `${checked.format}.zip` : 'import.csv';
}

/** The job as its owner sees it (contract/imports.ts). */
function present(job: JobState): ImportJob {
  return {
    id: job.id,
    format: job.format,
    fileName: job.fileName,
    status: job.status,
    total: job.total,
    processed: job.processed,
    imported: job.imported,
    duplicates: job.duplicates,
    refused: job.refused,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    message: job.message,
  };
}

/**
 * Importing entries from files: an upload is received to disk, read through once to check it
 * (src/imports/receive.ts) and becomes a job kept in files under <dataDir>/imports
 * (src/imports/store.ts), run in the background in batches (src/imports/runner.ts). A refused
 * file leaves nothing behind. One job at a time per user.
 */
export function createImportService(deps: Omit<RunnerDeps, 'store'> & { dataDir: string }) {
  const store = createImportStore(path.join(deps.dataDir, 'imports'));
  const runner = createImportRunner({ ...deps, store });
  /** Users whose upload is being received (a second one at the same time is refused). */
  const receiving = new Set<number>();

  async function own(viewer: ImportViewer, id: string): Promise<JobState> {
    const job = await store.load(id);
    if (!job || job.userId !== viewer.id) throw notFound(JOB_NOT_FOUND);
    return job;
  }

  async function ofUser(userId: number): Promise<JobState[]> {
    const jobs = (await store.all()).filter((j) => j.userId === userId);
    return jobs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  return {
    /** Receives and checks a file, and queues its import (answered at once, before it runs). */
    async receive(
      viewer: ImportViewer,
      body: WebReadableStream<Uint8Array> | null,
      options: { format?: ImportFormat | undefined; fileName?: string | undefined },
    ): Promise<ImportJob> {
      const running = () =>
        conflict('An import of yours is still running: wait until it has finished');
      // Marked before anything is awaited, so that two uploads at once cannot both pass.
      if (receiving.has(viewer.id)) throw running();
      receiving.add(viewer.id);
      const incoming = await store.incomingPath();
      try {
        const jobs = await ofUser(viewer.id);
        if (jobs.some((j) => j.status === 'QUEUED' || j.status === 'RUNNING')) throw running();
        if (!body) throw badRequest('Send the file as the request body');
        await receiveBody(body, incoming);
        const checked = await checkUpload(incoming, options.format ?? 'auto');
        const job: JobState = {
          id: store.newId(),
          userId: viewer.id,
          fileName: options.fileName || defaultName(checked),
          status: 'QUEUED',
          processed: 0,
          imported: 0,
          duplicates: 0,
          refused: 0,
          createdAt: new Date(deps.now()).toISOString(),
          finishedAt: null,
          message: null,
          ...checked,
        };
        await store.create(job, incoming);
        runner.enqueue(job.id);
        for (const old of (await ofUser(viewer.id)).slice(IMPORTS_KEPT)) {
          if (old.status === 'DONE' || old.status === 'FAILED') await store.remove(old.id);
        }
        return present(job);
      } finally {
        receiving.delete(viewer.id);
        await fs.promises.rm(incoming, { force: true });
      }
    },

    /** The viewer's imports, newest first. */
    async list(viewer: ImportViewer): Promise<ImportJob[]> {
      return (await ofUser(viewer.id)).slice(0, IMPORTS_KEPT).map(present);
    },

    async get(viewer: ImportViewer, id: string): Promise<ImportJob> {
      return present(await own(viewer, id));
    },

    /** A page of the rows done so far and what became of each (contract/imports.ts). */
    async report(
      viewer: ImportViewer,
      id: string,
      query: ImportReportQuery = {},
    ): Promise<ImportReport> {
      const job = await own(viewer, id);
      // Lines past `processed` are the batch under way's, not done yet.
      let rows = (await store.readReport(id)).slice(0, job.processed);
      if (query.outcome === 'NOT_IMPORTED') rows = rows.filter((r) => r.outcome !== 'IMPORTED');
      const offset = query.offset ?? 0;
      const end = offset + (query.limit ?? IMPORT_REPORT_PAGE_MAX);
      return {
        job: present(job),
        rows: rows.slice(offset, end),
        total: rows.length,
        offset,
        nextOffset: end < rows.length ? end : null,
      };
    },

    /** At start: drops half-received uploads and goes on with the jobs a stop interrupted. */
    async start(): Promise<void> {
      await store.removeIncoming();
      const pending = (await store.all())
        .filter((j) => j.status === 'QUEUED' || j.status === 'RUNNING')
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      for (const job of pending) runner.enqueue(job.id);
    },

    idle: runner.idle,
    stop: runner.stop,
  };
}

export type ImportService = ReturnType<typeof createImportService>;
