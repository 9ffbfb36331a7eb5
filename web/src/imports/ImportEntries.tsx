import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import { messageOf } from '../notes/notes.tsx';
import { Panel, PanelError } from '../profile/Panel.tsx';
import { FileButton } from '../ui/FileButton.tsx';
import { fetchImports, importKeys, startImport, type ImportFormat, type ImportJob } from './api.ts';
import { FORMAT_NAMES, FORMAT_OPTIONS, TEMPLATE_EXAMPLE, TEMPLATE_HEADER } from './formats.ts';
import { ImportReportTable } from './ImportReportTable.tsx';
import './import.css';

const MAX_MB = 50;
const running = (job: ImportJob) => job.status === 'QUEUED' || job.status === 'RUNNING';
const n = (value: number) => value.toLocaleString('en');

/** The import form: a file, its format, and the button. */
function ImportForm({ busy, onStarted }: { busy: boolean; onStarted: (job: ImportJob) => void }) {
  const fileId = useId();
  const formatId = useId();
  const chosenId = useId();
  const input = useRef<HTMLInputElement>(null);
  /** The chosen file's name, shown beside the button. */
  const [chosen, setChosen] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>('auto');
  const [sending, setSending] = useState(false);
  /** How much of the file has gone (0 to 1), or null when nothing is being sent. */
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return setError('Choose a file to import');
    if (file.size > MAX_MB * 1024 * 1024)
      return setError(`The file is too large: at most ${MAX_MB} MB`);
    setError(null);
    setSending(true);
    try {
      setSent(0);
      onStarted(await startImport(file, format, setSent));
      if (input.current) input.current.value = '';
      setChosen(null);
    } catch (caught) {
      setError(messageOf(caught, 'The file could not be imported'));
    } finally {
      setSending(false);
      setSent(null);
    }
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={fileId}>
          File (CSV or ZIP, at most {MAX_MB} MB)
        </label>
        <FileButton
          inputProps={{
            id: fileId,
            ref: input,
            name: 'file',
            accept: '.csv,.zip,text/csv,application/zip',
            'aria-describedby': chosenId,
            onChange: (event) => setChosen(event.target.files?.[0]?.name ?? null),
          }}
        >
          Choose a file
        </FileButton>
        <p id={chosenId} className="field__hint">
          {chosen ? `Chosen: ${chosen}` : 'No file chosen yet.'}
        </p>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={formatId}>
          Format
        </label>
        <select
          id={formatId}
          className="field__input"
          value={format}
          onChange={(event) => setFormat(event.target.value as ImportFormat)}
        >
          {FORMAT_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <PanelError message={error} />
      <div className="account-panel__actions">
        <button type="submit" className="button button--primary" disabled={sending || busy}>
          {sending ? (sent !== null && sent < 1 ? 'Sending…' : 'Checking the file…') : 'Import'}
        </button>
      </div>
      {sent !== null && sent < 1 && (
        <div className="import-job__progress">
          <progress className="import-job__bar" value={sent} max={1} aria-label="File sent" />
          <span className="import-job__count">{Math.round(sent * 100)}% sent</span>
        </div>
      )}
      {busy && (
        <p className="field__hint">An import is running: the next one can start when it ends.</p>
      )}
    </form>
  );
}

/** One import: its progress bar while it runs, its counts and report once done. */
function ImportJobView({ job }: { job: ImportJob }) {
  const labelId = useId();
  const done = job.processed;
  return (
    <article className="import-job" aria-labelledby={labelId}>
      <h3 id={labelId} className="import-job__title">
        {job.fileName} <span className="import-job__format">({FORMAT_NAMES[job.format]})</span>
      </h3>
      {running(job) ? (
        <div className="import-job__progress">
          <progress
            className="import-job__bar"
            value={done}
            max={Math.max(1, job.total)}
            aria-labelledby={labelId}
          />
          <span className="import-job__count" role="status">
            {job.status === 'QUEUED' ? 'Waiting to start…' : `${n(done)} of ${n(job.total)} rows`}
          </span>
        </div>
      ) : job.status === 'FAILED' ? (
        <p role="alert" className="form-error">
          The import stopped after {n(done)} of {n(job.total)} rows: {job.message}
        </p>
      ) : null}
      <p className="import-job__summary">
        <span>Imported {n(job.imported)}</span>
        <span>Duplicates {n(job.duplicates)}</span>
        <span>Refused {n(job.refused)}</span>
      </p>
      {!running(job) && <ImportReportTable job={job} />}
    </article>
  );
}

/**
 * 'Import entries' on /profile: bring entries in from Untappd, Vivino, CellarTracker, the
 * generic CSV template or a vault export. The import runs on the server; the panel polls it
 * every second while it runs, then shows the report.
 */
export function ImportEntries() {
  const queryClient = useQueryClient();
  const jobs = useQuery({
    queryKey: importKeys.jobs,
    queryFn: fetchImports,
    refetchInterval: (query) => (query.state.data?.some(running) ? 1000 : false),
  });
  const list = jobs.data ?? [];
  const busy = list.some(running);
  const wasBusy = useRef(false);
  useEffect(() => {
    // An import that just ended changed the vault's lists.
    if (wasBusy.current && !busy)
      void queryClient.invalidateQueries({ queryKey: queryKeys.beverages.all });
    wasBusy.current = busy;
  }, [busy, queryClient]);

  const started = (job: ImportJob) => {
    queryClient.setQueryData<ImportJob[]>(importKeys.jobs, (old) => [job, ...(old ?? [])]);
    void queryClient.invalidateQueries({ queryKey: importKeys.jobs });
  };

  const [latest, ...earlier] = list;
  return (
    <>
      <Panel
        title="Import entries"
        intro="Bring in what you logged elsewhere. Imported entries are added to your vault only: your followers and other servers are not told about them. An entry with the same name, maker and subtype as one already in your vault is skipped."
      >
        <ImportForm busy={busy} onStarted={started} />
        <details className="import-help">
          <summary>Which files?</summary>
          <ul>
            <li>
              Untappd: the CSV of your Beer History (a Supporter feature). Ratings are rounded to
              whole stars.
            </li>
            <li>
              Vivino: the ZIP of your data download as it is (your wines, with their drinking
              windows, and the bottles in your cellar), or its full_wine_list.csv or cellar.csv.
              Ratings are rounded to whole stars.
            </li>
            <li>
              CellarTracker: the CSV of your inventory, your cellar or your consumed bottles. Each
              wine becomes one entry, its bottles go to your cellar in their location and bin, with
              their drinking window; 100-point scores become 0–5 stars.
            </li>
            <li>
              A vault export: the ZIP of “Export my vault”, with its photos, bottles, places,
              tastings, and its shares with people who have an account on this vault.
            </li>
            <li>
              Anything else as a CSV with this header row (type and name are required):
              <pre className="import-help__template">
                {TEMPLATE_HEADER}
                {'\n'}
                {TEMPLATE_EXAMPLE}
              </pre>
            </li>
          </ul>
        </details>
      </Panel>
      {jobs.isError && <PanelError message={jobs.error.message} />}
      {latest && (
        <Panel title={running(latest) ? 'Importing' : 'Last import'}>
          <ImportJobView job={latest} />
        </Panel>
      )}
      {earlier.length > 0 && (
        <Panel title="Earlier imports">
          <ul className="import-history">
            {earlier.map((job) => (
              <li key={job.id}>
                {job.fileName} ({FORMAT_NAMES[job.format]}): {n(job.imported)} imported,{' '}
                {n(job.duplicates)} duplicates, {n(job.refused)} refused
                {job.status === 'FAILED' && ` — stopped: ${job.message}`}
              </li>
            ))}
          </ul>
        </Panel>
      )}
    </>
  );
}
