import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

const root = decodeURIComponent(new URL('.', import.meta.url).pathname);
/** The repository: the client imports the server's beverage catalogue (src/beverages/catalog.ts). */
const repository = decodeURIComponent(new URL('..', import.meta.url).pathname);
const server = 'http://localhost:8080';

/** ActivityPub actors live at /users/{username}; a browser asking for HTML gets the client. */
const apiOnly: ProxyOptions = {
  target: server,
  bypass(req) {
    const accept = req.headers.accept ?? '';
    if (req.method === 'GET' && accept.includes('text/html')) return '/index.html';
    return undefined;
  },
};

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    // web/ plus what it shares with the server, and node_modules (all under the repository).
    fs: { allow: [repository] },
    proxy: {
      '/api': server,
      '/.well-known': server,
      '/nodeinfo': server,
      '/inbox': server,
      '/users': apiOnly,
    },
  },
});
