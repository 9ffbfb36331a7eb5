import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.ts';
import { SERVER_PATHS, type ServerPath } from '../src/http/server-paths.ts';

const root = decodeURIComponent(new URL('.', import.meta.url).pathname);
/** The repository: the client imports the server's beverage catalogue (src/beverages/catalog.ts). */
const repository = decodeURIComponent(new URL('..', import.meta.url).pathname);
/** Where the dev server sends the paths the vault answers itself (`npm run dev` sets it). */
const server = process.env.VAULT_DEV_PROXY_TARGET || 'http://localhost:8080';

/** A proxy key matching what the server's table matches (serverPathOf): a regular expression. */
function proxyKey({ prefix }: ServerPath): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return prefix.endsWith('/') ? `^${escaped}` : `^${escaped}(?:[/?]|$)`;
}

function proxyOptions({ serves }: ServerPath): ProxyOptions {
  if (serves === 'server') return { target: server };
  // /users/alice is both an ActivityPub actor and the client's profile page: a browser asking
  // for a page gets the client, everything else goes to the server.
  return {
    target: server,
    bypass(req) {
      const accept = req.headers.accept ?? '';
      if (req.method === 'GET' && accept.includes('text/html')) return '/index.html';
      return undefined;
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), precompress()],
  resolve: {
    alias: [
      // React 19 has useSyncExternalStore: wouter's shim for older versions is not needed.
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: `${root}src/vendor/use-sync-external-store.ts`,
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Built for debugging, but named by no script (no sourceMappingURL comment): the server
    // serves them, with a SourceMap header on each script, only when VAULT_SERVE_SOURCE_MAPS is on.
    sourcemap: 'hidden',
    rolldownOptions: {
      // Everything index.html needs up front in one file (one request, better compression);
      // screens and libraries loaded with import() keep their own chunks.
      output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } },
    },
  },
  server: {
    port: 5173,
    // web/ plus what it shares with the server, and node_modules (all under the repository).
    fs: { allow: [repository] },
    // Exactly the paths the server answers itself (src/http/server-paths.ts); the rest is Vite's.
    proxy: Object.fromEntries(SERVER_PATHS.map((path) => [proxyKey(path), proxyOptions(path)])),
  },
});
