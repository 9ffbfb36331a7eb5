/**
 * The import calls (contract/imports.ts). The upload sends the file itself as the body, so it
 * goes through fetch here; its answer is read by the API module's rules (readResponse).
 */
import type { ImportFormat, ImportJob, ImportReport } from '../../../contract/imports.ts';
import { API_PREFIX, ApiError, readResponse, request } from '../api/client.ts';

export type { ImportFormat, ImportJob, ImportReport };

const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

/** POST /imports: the file as the body; answers the queued job. */
export async function startImport(file: File, format: ImportFormat): Promise<ImportJob> {
  const query = new URLSearchParams({ format, fileName: file.name.slice(0, 200) });
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}/imports?${query}`, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': file.type || 'application/octet-stream',
      },
      body: file,
      credentials: 'include',
    });
  } catch {
    throw new ApiError(UNREACHABLE, 0);
  }
  return (await readResponse<{ job: ImportJob }>(response)).job;
}

/** GET /imports: the signed-in user's imports, newest first. */
export async function fetchImports(): Promise<ImportJob[]> {
  return (await request<{ jobs: ImportJob[] }>('/imports')).jobs;
}

/** GET /imports/{id}/report: every row and what became of it. */
export function fetchImportReport(id: string): Promise<ImportReport> {
  return request<ImportReport>(`/imports/${encodeURIComponent(id)}/report`);
}

export const importKeys = {
  jobs: ['imports'] as const,
  report: (id: string) => ['imports', id, 'report'] as const,
};
