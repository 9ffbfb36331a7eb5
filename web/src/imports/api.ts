/**
 * The import calls, typed from the route table (contract/routes/data.ts). The upload sends the
 * file itself as the body, so it is sent here rather than by `call`, with its upload progress
 * (../api/upload-progress.ts) and its path, query and answer taken from the table; the vault's
 * reachability and its answer follow the API module's rules (exchange, readResponse). The other
 * calls go through `call` (../api/call.ts).
 */
import type {
  ImportFormat,
  ImportJob,
  ImportReport,
  ImportReportFilter,
} from '../../../contract/imports.ts';
import type { AnswerOf, ApiRoutes, RouteKey } from '../../../contract/routes/index.ts';
import type { QueryInputOf } from '../../../contract/routes/route.ts';
import { call, pathOf } from '../api/call.ts';
import { API_PREFIX, exchange, readResponse } from '../api/client.ts';
import { canTrackUploads, sendWithProgress } from '../api/upload-progress.ts';

export type { ImportFormat, ImportJob, ImportReport, ImportReportFilter };

/**
 * POST /imports: the file as the body; answers the queued job once the server has checked the
 * file. `onProgress` hears how much of the file has been sent (0 to 1).
 */
export async function startImport(
  file: File,
  format: ImportFormat,
  onProgress: (fraction: number) => void = () => {},
): Promise<ImportJob> {
  const upload = 'POST /imports' satisfies RouteKey;
  const fields: Required<QueryInputOf<ApiRoutes[typeof upload]>> = {
    format,
    fileName: file.name.slice(0, 200),
  };
  const url = `${API_PREFIX}${pathOf(upload)}?${new URLSearchParams(fields)}`;
  const headers = {
    Accept: 'application/json',
    'Content-Type': file.type || 'application/octet-stream',
  };
  const response = await exchange(() =>
    canTrackUploads()
      ? sendWithProgress(url, { method: 'POST', headers, body: file }, (loaded, total) => {
          if (total > 0) onProgress(loaded / total);
        })
      : fetch(url, { method: 'POST', headers, body: file, credentials: 'include' }),
  );
  return (await readResponse<AnswerOf<typeof upload>>(response)).job;
}

/** GET /imports: the signed-in user's imports, newest first. */
export async function fetchImports(): Promise<ImportJob[]> {
  return (await call('GET /imports')).jobs;
}

/** GET /imports/{id}/report: the first `limit` rows matching `outcome`, and how many match. */
export function fetchImportReport(
  id: string,
  outcome: ImportReportFilter,
  limit: number,
): Promise<ImportReport> {
  return call('GET /imports/{id}/report', { params: { id }, query: { outcome, limit } });
}

export const importKeys = {
  jobs: ['imports'] as const,
  report: (id: string, outcome: ImportReportFilter) => ['imports', id, 'report', outcome] as const,
};
