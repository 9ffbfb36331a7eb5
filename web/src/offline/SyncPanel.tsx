import { useId, useSyncExternalStore } from 'react';
import type { OfflineQueue } from './queue.ts';
import type { QueuedChange } from './queue-store.ts';

export const SYNC_PANEL_TITLE = 'Waiting to sync';
export const SYNC_PANEL_TEXT = 'Kept on this device and sent in order when the connection returns.';
export const NOT_SYNCED_TITLE = 'Not synced';
/** Why 'Sync now' cannot be used while the browser says it has no connection. */
export const SYNC_OFFLINE = 'Sync starts when you are back online.';

/** Whether the browser says it has a connection, kept up to date. */
function useOnline(): boolean {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('online', changed);
      window.addEventListener('offline', changed);
      return () => {
        window.removeEventListener('online', changed);
        window.removeEventListener('offline', changed);
      };
    },
    () => navigator.onLine,
  );
}

interface SyncPanelProps {
  id: string;
  queue: OfflineQueue;
  waiting: readonly QueuedChange[];
  refused: readonly QueuedChange[];
  syncing: boolean;
}

const timeOf = (at: number) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The header's list of changes kept offline: those waiting, and those the vault refused. */
export function SyncPanel({ id, queue, waiting, refused, syncing }: SyncPanelProps) {
  const titleId = useId();
  const refusedTitleId = useId();
  const offlineId = useId();
  const online = useOnline();
  return (
    <section id={id} className="popover sync-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="popover__title">
        {SYNC_PANEL_TITLE}
      </h2>
      <p className="sync-panel__text">{SYNC_PANEL_TEXT}</p>
      {waiting.length > 0 && (
        <ul className="sync-panel__list" aria-labelledby={titleId}>
          {waiting.map((change) => (
            <li key={change.seq} className="sync-panel__item">
              <span className="sync-panel__label">{change.label}</span>
              <span className="sync-panel__meta">Saved {timeOf(change.queuedAt)}</span>
            </li>
          ))}
        </ul>
      )}
      {refused.length > 0 && (
        <>
          <h3 id={refusedTitleId} className="sync-panel__subtitle">
            {NOT_SYNCED_TITLE}
          </h3>
          <ul className="sync-panel__list" aria-labelledby={refusedTitleId}>
            {refused.map((change) => (
              <li key={change.seq} className="sync-panel__item sync-panel__item--refused">
                <span className="sync-panel__label">{change.label}</span>
                <span className="sync-panel__reason">
                  The vault refused it: {change.refused?.message}
                </span>
                <button
                  type="button"
                  className="button button--secondary sync-panel__discard"
                  aria-label={`Discard ${change.label}`}
                  onClick={() => void queue.discard(change.seq)}
                >
                  Discard
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="sync-panel__actions">
        {!online && waiting.length > 0 && (
          <p id={offlineId} className="sync-panel__offline">
            {SYNC_OFFLINE}
          </p>
        )}
        <button
          type="button"
          className="button button--primary"
          disabled={syncing || waiting.length === 0 || !online}
          aria-busy={syncing}
          aria-describedby={!online && waiting.length > 0 ? offlineId : undefined}
          onClick={() => void queue.sync()}
        >
          {syncing ? 'Syncing…' : 'Sync now'}
        </button>
      </div>
    </section>
  );
}
