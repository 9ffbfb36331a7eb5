/**
 * Registers the service worker (web/public/sw.js) in the built client: it keeps the app shell
 * on the device so the vault opens offline. Not in the dev server, where Vite serves modules
 * that change at every edit.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Not fatal: the vault works online without it (a private window may refuse workers).
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
