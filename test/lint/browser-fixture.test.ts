import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every browser test file has one set-up: the fixture of test/helpers/people-in-browsers.ts
 * (a vault or two, the run's Chromium, people signed in, pages closed and checked after each
 * test). A file in test/browser/ that starts a vault or opens a browser context itself copies
 * that set-up and drifts from it.
 */

const folder = path.resolve(import.meta.dirname, '..', 'browser');
const FIXTURE = '../helpers/people-in-browsers.ts';

/** What sets up a vault or a browser outside the fixture, imported by name. */
const SET_UP_ITSELF = [
  'launchBrowser',
  'launchChromiumServer',
  'openPage',
  'openSignedIn',
  'signedInState',
  'startTestServer',
  'startHttpsVault',
  'startVault',
  'createTestVault',
];

/** The names a module imports as values (not `import type`), with the module each is from. */
function valueImports(source: string): { name: string; from: string }[] {
  const found: { name: string; from: string }[] = [];
  for (const match of source.matchAll(/import\s+(?!type\s)([^;]*?)\s+from\s+'([^']+)'/g)) {
    const names = /\{([^}]*)\}/.exec(match[1]!)?.[1] ?? '';
    for (const part of names.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type '))
        found.push({ name: name.split(/\s+as\s+/)[0]!, from: match[2]! });
    }
  }
  return found;
}

/** Why `source` sets up a vault or a browser itself; empty when it leaves that to the fixture. */
export function ownSetUp(source: string): string[] {
  const reasons = valueImports(source)
    .filter(
      ({ name, from }) =>
        SET_UP_ITSELF.includes(name) || (name === 'chromium' && from === 'playwright-core'),
    )
    .map(({ name, from }) => `imports ${name} from ${from}`);
  if (/\.newContext\(/.test(source)) reasons.push('opens a browser context itself');
  return reasons;
}

const files = fs
  .readdirSync(folder)
  .filter((file) => file.endsWith('.ts'))
  .sort();
const sourceOf = (file: string) => fs.readFileSync(path.join(folder, file), 'utf8');

/** Whether `file` uses the fixture, directly or through a module of test/browser/ that does. */
function usesFixture(file: string, seen = new Set<string>()): boolean {
  seen.add(file);
  return valueImports(sourceOf(file)).some(
    ({ from }) =>
      from === FIXTURE ||
      (from.startsWith('./') && !seen.has(from.slice(2)) && usesFixture(from.slice(2), seen)),
  );
}

describe('the browser tests’ one set-up', () => {
  it.each(files)('%s starts no vault and opens no browser context itself', (file) => {
    expect(ownSetUp(sourceOf(file))).toEqual([]);
  });

  it.each(files.filter((file) => file.endsWith('.test.ts')))('%s uses the fixture', (file) => {
    expect(usesFixture(file)).toBe(true);
  });

  it('finds a vault or a browser started by a file itself', () => {
    expect(
      ownSetUp(
        "import { startTestServer } from '../helpers/server.ts';\nimport { chromium } from 'playwright-core';\nconst c = await browser.newContext();\n",
      ),
    ).toEqual([
      'imports startTestServer from ../helpers/server.ts',
      'imports chromium from playwright-core',
      'opens a browser context itself',
    ]);
    expect(
      ownSetUp(
        "import {\n  headingText,\n  openSignedIn as open,\n} from '../helpers/browser.ts';\nimport type { Browser } from 'playwright-core';\n",
      ),
    ).toEqual(['imports openSignedIn from ../helpers/browser.ts']);
    expect(
      ownSetUp("import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';\n"),
    ).toEqual([]);
  });
});
