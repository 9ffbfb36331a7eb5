import { useSyncExternalStore } from 'react';
import {
  reportConnectionBack,
  subscribeReachability,
  vaultUnreachable,
} from '../api/reachability.ts';

function subscribe(onChange: () => void): () => void {
  // 'online' clears a failed request's mark (the next request tells again) and tells onChange.
  window.addEventListener('online', reportConnectionBack);
  window.addEventListener('offline', onChange);
  const stop = subscribeReachability(onChange);
  return () => {
    window.removeEventListener('online', reportConnectionBack);
    window.removeEventListener('offline', onChange);
    stop();
  };
}

/**
 * Whether the vault can be used: the browser says it has a connection and the last request to
 * the vault got an answer (see api/reachability.ts). True until one of them says otherwise.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine && !vaultUnreachable(),
    () => true,
  );
}
