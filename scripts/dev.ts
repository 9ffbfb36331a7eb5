// `npm run dev`: the server with --watch and the Vite dev server (which proxies to it) together.
// The browser talks to Vite (http://localhost:5173), so that is the vault's public origin here:
// the server's CSRF check and WebAuthn expect it (set VAULT_ORIGIN to override). Vite proxies the
// paths the server answers itself (src/http/server-paths.ts) to VAULT_DEV_PROXY_TARGET.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.PORT || '8080';
const children = [
  spawn(process.execPath, ['--watch', '--watch-preserve-output', 'src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VAULT_ORIGIN: process.env.VAULT_ORIGIN || 'http://localhost:5173' },
  }),
  spawn(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--config', 'web/vite.config.ts'],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        VAULT_DEV_PROXY_TARGET: process.env.VAULT_DEV_PROXY_TARGET || `http://localhost:${port}`,
      },
    },
  ),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
