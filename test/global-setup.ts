import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds the client once, so browser tests run against what `npm start` serves. */
export default function setup() {
  const root = path.resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-web-if-needed.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
}
