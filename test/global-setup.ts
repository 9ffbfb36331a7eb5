import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, launchChromiumServer } from './helpers/chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's one Chromium listens ('' when it is not installed). */
    chromiumEndpoint: string;
  }
}

/**
 * Builds the client once, so browser tests run against what `npm start` serves, and starts one
 * Chromium that every browser test file connects to (a launch per file cost about half a second
 * of the two cores each time). Without Chromium the browser tests fail, saying how to install it.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-web-if-needed.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  const chromium = fs.existsSync(CHROMIUM_PATH) ? await launchChromiumServer() : undefined;
  project.provide('chromiumEndpoint', chromium?.wsEndpoint() ?? '');
  return async () => {
    await chromium?.close();
  };
}
