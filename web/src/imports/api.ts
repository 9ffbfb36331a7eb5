/**
 * The import calls, typed from the route table (contract/routes/data.ts). The upload sends the
 * file itself as the body, so it goes through XMLHttpRequest here (for its upload progress),
 * with its path, query and answer taken from the table; its answer is read by the API module's
 * rules (readResponse). The other calls go through `call` (../api/call.ts).
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
import { API_PREFIX, ApiError, NO_ANSWER, readResponse } from '../api/client.ts';
import { connectionMark, reportReached, reportUnreachable } from '../api/reachability.ts';

export type { ImportFormat, ImportJob, ImportReport, ImportReportFilter };

const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

/** Sends the file with XMLHttpRequest, the one browser API that reports an upload's progress. */
function sendWithProgress(
  url: string,
  headers: Record<string, string>,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () =>
      resolve(
        new Response(xhr.responseText, {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? 'text/plain' },
        }),
      );
    xhr.onerror = () => reject(new TypeError('Network error'));
    xhr.onabort = () => reject(new TypeError('Aborted'));
    xhr.send(file);
  });
}

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
  let response: Response;
  const mark = connectionMark();
  try {
    response =
      typeof XMLHttpRequest === 'function'
        ? await sendWithProgress(url, headers, file, onProgress)
        : await fetch(url, { method: 'POST', headers, body: file, credentials: 'include' });
  } catch (error) {
    if (!(error instanceof Error && error.message === 'Aborted')) reportUnreachable(mark);
    throw new ApiError(UNREACHABLE, NO_ANSWER);
  }
  reportReached();
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
