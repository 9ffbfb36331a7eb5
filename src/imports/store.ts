import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ImportFormat, ImportReportRow, ImportStatus } from '../../contract/imports.ts';

/** An import job as kept on disk, in <dataDir>/imports/<id>/job.json. */
export interface JobState {
  id: string;
  userId: number;
  format: Exclude<ImportFormat, 'auto'>;
  fileName: string;
  status: ImportStatus;
  total: number;
  processed: number;
  imported: number;
  duplicates: number;
  refused: number;
  createdAt: string;
  finishedAt: string | null;
  message: string | null;
  /** The uploaded file, in the job's folder ('upload.csv' or 'upload.zip'); removed when done. */
  source: string;
  /**
   * How the CSV is read (delimiter, lower-case column names and the text encoding, UTF-8 when
   * absent); absent for a ZIP.
   */
  csv?: {
    delimiter: string;
    columns: string[];
    encoding?: 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';
  };
}

const JOB_ID = /^[a-f0-9]{32}$/;

/**
 * The import jobs' files under <dataDir>/imports: per job a folder with job.json (replaced
 * whole: written to a temporary file, then renamed), report.jsonl (one line per row done, in
 * order) and the uploaded file until the job ends. Uploads arrive as incoming-<random> files
 * beside the folders and are moved in once checked, or deleted.
 */
export function createImportStore(root: string) {
  const folder = (id: string) => path.join(root, id);
  const jobFile = (id: string) => path.join(folder(id), 'job.json');
  const reportFile = (id: string) => path.join(folder(id), 'report.jsonl');

  async function save(job: JobState): Promise<void> {
    const temp = `${jobFile(job.id)}.tmp`;
    await fs.promises.writeFile(temp, JSON.stringify(job));
    await fs.promises.rename(temp, jobFile(job.id));
  }

  async function load(id: string): Promise<JobState | undefined> {
    if (!JOB_ID.test(id)) return undefined;
    try {
      return JSON.parse(await fs.promises.readFile(jobFile(id), 'utf8')) as JobState;
    } catch {
      return undefined;
    }
  }

  return {
    newId: () => crypto.randomBytes(16).toString('hex'),

    /** A fresh path for an upload being received. */
    async incomingPath(): Promise<string> {
      await fs.promises.mkdir(root, { recursive: true });
      return path.join(root, `incoming-${crypto.randomBytes(12).toString('hex')}`);
    },

    sourcePath: (job: JobState) => path.join(folder(job.id), job.source),

    /** Makes the job's folder, moves the checked upload into it, and writes job.json. */
    async create(job: JobState, upload: string): Promise<void> {
      await fs.promises.mkdir(folder(job.id), { recursive: true });
      await fs.promises.rename(upload, path.join(folder(job.id), job.source));
      await save(job);
    },

    save,
    load,

    /** Every job on disk (a folder without a readable job.json is skipped). */
    async all(): Promise<JobState[]> {
      let names: string[];
      try {
        names = await fs.promises.readdir(root);
      } catch {
        return [];
      }
      const jobs = await Promise.all(names.filter((n) => JOB_ID.test(n)).map(load));
      return jobs.filter((j): j is JobState => j !== undefined);
    },

    async appendReport(id: string, rows: ImportReportRow[]): Promise<void> {
      if (rows.length === 0) return;
      await fs.promises.appendFile(
        reportFile(id),
        rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
      );
    },

    /**
     * Keeps the report's first `rows` lines and appends `lines` after them, replacing the file
     * whole (temporary file, then rename): a resumed job's first batch, which takes the place
     * of the lines the interrupted batch left.
     */
    async replaceReportFrom(id: string, rows: number, lines: ImportReportRow[]): Promise<void> {
      const kept = (await this.readReport(id)).slice(0, rows).concat(lines);
      const temp = `${reportFile(id)}.tmp`;
      await fs.promises.writeFile(temp, kept.map((r) => JSON.stringify(r) + '\n').join(''));
      await fs.promises.rename(temp, reportFile(id));
    },

    /** Keeps the report's first `rows` lines (a job resumed after a crash redoes the rest). */
    async truncateReport(id: string, rows: number): Promise<void> {
      const lines = (await this.readReport(id)).slice(0, rows);
      await fs.promises.writeFile(
        reportFile(id),
        lines.map((r) => JSON.stringify(r) + '\n').join(''),
      );
    },

    async readReport(id: string): Promise<ImportReportRow[]> {
      let text: string;
      try {
        text = await fs.promises.readFile(reportFile(id), 'utf8');
      } catch {
        return [];
      }
      const rows: ImportReportRow[] = [];
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          rows.push(JSON.parse(line) as ImportReportRow);
        } catch {
          break; // a line cut off by a crash: the job redoes it
        }
      }
      return rows;
    },

    /** A finished job's folder, report and all. */
    async remove(id: string): Promise<void> {
      if (JOB_ID.test(id)) await fs.promises.rm(folder(id), { recursive: true, force: true });
    },

    async removeSource(job: JobState): Promise<void> {
      await fs.promises.rm(path.join(folder(job.id), job.source), { force: true });
    },

    /** Uploads a crash left half-received. */
    async removeIncoming(): Promise<void> {
      let names: string[];
      try {
        names = await fs.promises.readdir(root);
      } catch {
        return;
      }
      await Promise.all(
        names
          .filter((n) => n.startsWith('incoming-'))
          .map((n) => fs.promises.rm(path.join(root, n), { force: true })),
      );
    },
  };
}

export type ImportStore = ReturnType<typeof createImportStore>;
