import { useEffect } from 'react';
import { probeVault } from '../api/client.ts';
import { useSession } from '../session/session.tsx';
import { useOnline } from './online.ts';
import './pwa.css';

export const OFFLINE_TITLE = 'You are offline.';
export const OFFLINE_TEXT = "The vault can't load or save anything until the connection is back.";
/** How often the vault is asked whether it is back while the browser says it is connected. */
const PROBE_INTERVAL_MS = 5000;

/**
 * Says so while the vault cannot be used: the browser is offline, or a request to the vault got
 * no answer (a captive portal, the server gone). While the browser says it is connected, the
 * vault is asked again every few seconds, since no browser event will say when it is back.
 * Once the connection is back, the session is checked again if it could not be checked before.
 */
export function OfflineBanner() {
  const online = useOnline();
  const { state, recheck } = useSession();
  const checkAgain = online && state.status === 'unavailable' && state.unreachable;

  useEffect(() => {
    if (checkAgain) recheck();
  }, [checkAgain, recheck]);

  useEffect(() => {
    if (online) return;
    let probing = false;
    const timer = setInterval(() => {
      if (probing || !navigator.onLine) return;
      probing = true;
      void probeVault().finally(() => {
        probing = false;
      });
    }, PROBE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [online]);

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
