import { useEffect, useRef } from 'react';
import { useSession } from '../session/session.tsx';
import { useOnline } from './online.ts';
import './pwa.css';

export const OFFLINE_TITLE = 'You are offline.';
export const OFFLINE_TEXT = "The vault can't load or save anything until the connection is back.";

/**
 * Says so while the device is offline (the app shell opens from the service worker's cache),
 * and checks the session again once the connection is back if it could not be checked before.
 */
export function OfflineBanner() {
  const online = useOnline();
  const { state, recheck } = useSession();
  const wasOffline = useRef(!online);

  useEffect(() => {
    if (!online) {
      wasOffline.current = true;
      return;
    }
    if (wasOffline.current && state.status === 'unavailable') recheck();
    wasOffline.current = false;
  }, [online, state.status, recheck]);

  return (
    <div className="offline-banner" role="status" aria-live="polite">
      {!online && (
        <p className="offline-banner__text">
          <strong>{OFFLINE_TITLE}</strong> {OFFLINE_TEXT}
        </p>
      )}
    </div>
  );
}
