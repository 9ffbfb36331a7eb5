import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchImportReport, importKeys, type ImportJob, type ImportReportFilter } from './api.ts';

/** At most this many rows are fetched and listed (a file may have 100,000). */
const SHOWN = 200;

const OUTCOME_LABELS = {
  IMPORTED: 'Imported',
  DUPLICATE: 'Duplicate',
  REFUSED: 'Refused',
} as const;

/** The per-row report of a finished import: rows not imported first, with the reason. */
export function ImportReportTable({ job }: { job: ImportJob }) {
  const [filter, setFilter] = useState<ImportReportFilter>('NOT_IMPORTED');
  const query = useQuery({
    queryKey: importKeys.report(job.id, filter),
    queryFn: () => fetchImportReport(job.id, filter, SHOWN),
    placeholderData: (previous) => previous,
  });
  if (query.isPending) return <p className="import-report__status">Loading the report…</p>;
  if (query.isError) {
    return (
      <p role="alert" className="form-error">
        {query.error.message}
      </p>
    );
  }
  // The server filters and counts; it sends the first SHOWN rows.
  const { rows: shown, total } = query.data;
  return (
    <div className="import-report">
      <fieldset className="import-report__filter">
        <legend className="field__label">Rows to list</legend>
        <label>
          <input
            type="radio"
            name={`filter-${job.id}`}
            checked={filter === 'NOT_IMPORTED'}
            onChange={() => setFilter('NOT_IMPORTED')}
          />{' '}
          Not imported
        </label>
        <label>
          <input
            type="radio"
            name={`filter-${job.id}`}
            checked={filter === 'ALL'}
            onChange={() => setFilter('ALL')}
          />{' '}
          Every row
        </label>
      </fieldset>
      {total === 0 ? (
        <p className="empty-state">Every row was imported.</p>
      ) : (
        <div className="import-report__scroll">
          <table className="import-report__table">
            <caption className="import-report__caption">
              {total === shown.length
                ? `${total} ${total === 1 ? 'row' : 'rows'}`
                : `The first ${shown.length} of ${total} rows`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Name</th>
                <th scope="col">Outcome</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.row} className={`import-report__row--${r.outcome.toLowerCase()}`}>
                  <td>{r.row}</td>
                  <td>{r.name || '—'}</td>
                  <td>{OUTCOME_LABELS[r.outcome]}</td>
                  <td>{r.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
