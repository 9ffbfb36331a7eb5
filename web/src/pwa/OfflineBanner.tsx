import { useEffect } from 'react';
import { useSession } from '../session/session.tsx';
import { useOnline } from './online.ts';
import './pwa.css';

export const OFFLINE_TITLE = 'You are offline.';
export const OFFLINE_TEXT =
  "The vault can't load anything until the connection is back; what you log is kept on this device and sent then.";

/**
 * Says so while the vault cannot be used: the browser is offline, or a request to the vault got
 * no answer (a captive portal, the server gone). Once the connection is back (the browser says
 * so, or a request gets an answer), the session is checked again if it could not be checked.
 */
export function OfflineBanner() {
  const online = useOnline();
  const { state, recheck } = useSession();
  const checkAgain =
    online &&
    ((state.status === 'unavailable' && state.unreachable) ||
      (state.status === 'signed-in' && state.offline === true));

  useEffect(() => {
    if (checkAgain) recheck();
  }, [checkAgain, recheck]);

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
