/**
 * The header's 'N waiting to sync': shown only while the signed-in user's offline queue holds
 * something, waiting or refused; it opens the list (SyncPanel). It also runs the queue: a sync
 * at start, when the browser says the connection is back, when the vault answers again after
 * it could not be reached, every RETRY_MS while something waits, and on 'Sync now'. Loaded on
 * demand just after the header's first render, with the queue and its IndexedDB code. It also
 * keeps the device copy (keep-on-device.ts), so the vault opens without a connection too.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { subscribeReachability, vaultUnreachable } from '../api/reachability.ts';
import { useCurrentUser } from '../session/session.tsx';
import { CloudUpIcon } from '../ui/icons.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { useDismiss } from '../ui/useDismiss.ts';
import { keepOnDevice } from './keep-on-device.ts';
import { queueOf } from './queues.ts';
import { setCurrentQueue } from './send-or-queue.ts';
import './offline.css';

const SyncPanel = lazyNamed(() => import('./SyncPanel.tsx'), 'SyncPanel');

/** How often a sync is tried again while changes wait and nothing else has started one. */
export const RETRY_MS = 60_000;

/** What the header says: '2 waiting to sync', '1 not synced'. */
export function syncCountText(waiting: number, refused: number): string {
  const parts = [];
  if (waiting > 0) parts.push(`${waiting} waiting to sync`);
  if (refused > 0) parts.push(`${refused} not synced`);
  return parts.join(', ');
}

export function SyncStatus() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const queue = queueOf(user.id);
  const { waiting, refused, syncing } = useSyncExternalStore(queue.subscribe, queue.snapshot);
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => keepOnDevice(queryClient, user), [queryClient, user]);

  useEffect(() => {
    setCurrentQueue(queue);
    SyncPanel.preload();
    const sync = () => {
      if (navigator.onLine && queue.snapshot().waiting.length > 0) void queue.sync();
    };
    // What was sent may be in any list (entries, an entry's bottles or tastings): all of it is
    // asked for again. What was sent shows as waiting until the new lists are here.
    const stopSynced = queue.onSynced(() => queryClient.invalidateQueries());
    let unreachable = vaultUnreachable();
    const stopReachability = subscribeReachability(() => {
      const was = unreachable;
      unreachable = vaultUnreachable();
      if (was && !unreachable) sync();
    });
    window.addEventListener('online', sync);
    const timer = window.setInterval(sync, RETRY_MS);
    queue.ready.then(sync, () => undefined);
    return () => {
      setCurrentQueue(null);
      stopSynced();
      stopReachability();
      window.removeEventListener('online', sync);
      window.clearInterval(timer);
    };
  }, [queue, queryClient]);

  const count = waiting.length + refused.length;
  // Everything was sent or discarded: the list closes with the count.
  if (open && count === 0) setOpen(false);
  useDismiss(open, containerRef, () => setOpen(false), buttonRef);
  const text = syncCountText(waiting.length, refused.length);

  return (
    <div className="sync-status" ref={containerRef} role="status">
      {count > 0 && (
        <>
          <button
            ref={buttonRef}
            type="button"
            className={`sync-status__button${refused.length > 0 ? ' sync-status__button--refused' : ''}`}
            aria-label={text}
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
            aria-busy={syncing}
            onClick={() => setOpen((value) => !value)}
          >
            <CloudUpIcon />
            {/* On a phone only the number shows; the name says it all. */}
            <span className="sync-status__count">{count}</span>
            <span className="sync-status__text">{text}</span>
          </button>
          {open && (
            <Suspense fallback={<DialogLoading />}>
              <SyncPanel
                id={panelId}
                queue={queue}
                waiting={waiting}
                refused={refused}
                syncing={syncing}
              />
            </Suspense>
          )}
        </>
      )}
    </div>
  );
}
