// Builds the client into web/dist when it is missing or older than any of its sources: the files
// under web/ and the server modules the client imports (the beverage catalogue and type names).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'web');
const builtIndex = path.join(web, 'dist', 'index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sharedSources = ['catalog.ts', 'type-names.ts'].map((file) =>
  path.join(root, 'src', 'beverages', file),
);
const newest = Math.max(newestSource(web), ...sharedSources.map((f) => fs.statSync(f).mtimeMs));
const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
if (builtAt === 0 || newest > builtAt) {
  console.log('Building the client (web/dist)...');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Built aside, then swapped in whole: a vault serving web/dist (a test run, say, while another
  // one rebuilds) never sees an emptied or half-written client.
  const staging = path.join(root, 'node_modules', `.vault-web-build-${process.pid}`);
  const config = path.join(web, 'vite.config.ts');
  execFileSync(
    process.execPath,
    [vite, 'build', '--config', config, '--outDir', staging, '--emptyOutDir'],
    {
      cwd: root,
      stdio: 'inherit',
      // Always the production build: under vitest NODE_ENV is 'test', which would make Vite
      // bundle React's development build (StrictMode's double effects included) into what
      // `npm start` then serves.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const dist = path.join(web, 'dist');
  const old = `${staging}-old`;
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(staging, dist);
  fs.rmSync(old, { recursive: true, force: true });
}
