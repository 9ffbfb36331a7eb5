// wouter imports useSyncExternalStore from the 'use-sync-external-store' shim, written for React
// 17 and older; React 19 has it built in. web/vite.config.ts points the shim here, so its
// fallback implementation stays out of the bundle.
export { useSyncExternalStore } from 'react';
