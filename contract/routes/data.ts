import { backupListSchema, createdBackupSchema } from '../backups.ts';
import { exportQuerySchema } from '../export.ts';
import {
  IMPORT_MAX_BYTES,
  importJobListSchema,
  importJobResponseSchema,
  importQuerySchema,
  importReportQuerySchema,
  importReportSchema,
} from '../imports.ts';
import { statsQuerySchema, statsSchema, yearReviewSchema } from '../stats.ts';
import { z } from 'zod';
import { route } from './route.ts';

/** An import's id is the text handle POST /imports answers, not a number. */
const importIdParams = z.object({ id: z.string().describe('The id POST /imports answered') });

const imports = {
  'POST /imports': route({
    summary: "Import entries from a file (a CSV or the vault's own export ZIP)",
    description:
      'The body is the file itself, not a form (any content type; at most 50 MB). The file is ' +
      'checked and the job queued: the answer is the job, which runs in the background ' +
      '(GET /imports/{id} tells how far it is). `format` says how to read the file (`auto`, ' +
      'the default, recognizes it); `fileName` is the name the job is listed under.',
    tag: 'Imports',
    access: 'write',
    upload: { type: 'application/octet-stream', maxBytes: IMPORT_MAX_BYTES },
    query: importQuerySchema,
    answer: importJobResponseSchema,
    status: 202,
    errors: [400, 409, 413],
  }),
  'GET /imports': route({
    summary: 'Your imports, newest first',
    tag: 'Imports',
    access: 'read',
    answer: importJobListSchema,
  }),
  'GET /imports/{id}': route({
    summary: 'One import of yours: its status and counts',
    tag: 'Imports',
    params: importIdParams,
    access: 'read',
    answer: importJobResponseSchema,
    errors: [404],
  }),
  'GET /imports/{id}/report': route({
    summary: 'What became of each row of an import, a page at a time',
    tag: 'Imports',
    params: importIdParams,
    access: 'read',
    query: importReportQuerySchema,
    answer: importReportSchema,
    errors: [400, 404],
  }),
} as const;

const backups = {
  'GET /backups': route({
    summary: 'The backups kept on the server, newest first, and the schedule',
    tag: 'Backups',
    access: 'admin',
    answer: backupListSchema,
  }),
  'POST /backups': route({
    summary: 'Make a backup now (answers once it is written)',
    tag: 'Backups',
    access: 'admin',
    answer: createdBackupSchema,
    status: 201,
    errors: [409],
  }),
  'GET /backups/{name}': route({
    summary: 'Download a backup (its ZIP)',
    tag: 'Backups',
    access: 'admin',
    file: 'application/zip',
    errors: [404],
  }),
  'DELETE /backups/{name}': route({
    summary: 'Delete a backup',
    tag: 'Backups',
    access: 'admin',
    status: 204,
    errors: [404],
  }),
} as const;

/** Imports, backups, the export and statistics. */
export const dataRoutes = {
  ...imports,
  ...backups,
  'GET /export': route({
    summary: 'Your vault as a ZIP: entries.csv, entries.json and photos/',
    description:
      'Streamed as it is made. An admin signed in by session may name another user ' +
      "(`username`) to export that user's vault.",
    tag: 'Export',
    access: 'read',
    query: exportQuerySchema,
    file: 'application/zip',
    errors: [400, 403, 404],
  }),
  'GET /stats': route({
    summary: 'Your statistics: figures per type, the last 12 months, the years you logged in',
    tag: 'Statistics',
    access: 'read',
    query: statsQuerySchema,
    answer: statsSchema,
    errors: [400],
  }),
  'GET /stats/years/{year}': route({
    summary: 'A year in review: the entries you logged in that calendar year',
    tag: 'Statistics',
    access: 'read',
    query: statsQuerySchema,
    answer: yearReviewSchema,
    errors: [400],
  }),
} as const;
