/**
 * TanStack Query pauses its queries while it thinks the browser is offline and takes them up
 * again when it is back, keeping what they last showed. Its idea of "online" is the browser's
 * flag, which stays true behind a captive portal, with the server gone, and in some browsers
 * under emulated offline. Here it follows whether the vault answers (api/reachability.ts), so a
 * list opened from the device copy keeps showing it instead of an error, and is asked again the
 * moment the vault answers. Writes are not held back: they still fail at once (or go to the
 * offline queue), as they always did.
 *
 * No DOM or React imports here.
 */
import { onlineManager, type QueryClient } from '@tanstack/query-core';
import { subscribeReachability, vaultUnreachable } from '../api/reachability.ts';

let following = false;

export function followReachability(client: QueryClient): void {
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({
    ...defaults,
    mutations: { ...defaults.mutations, networkMode: 'always' },
  });
  if (following) return;
  following = true;
  const follow = () => onlineManager.setOnline(!vaultUnreachable());
  subscribeReachability(follow);
  follow();
}
