import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The variables src/config.ts reads: the keys of its environment schema. */
function variables(): string[] {
  const source = read('src/config.ts');
  const schema = source.slice(source.indexOf('const envSchema'), source.indexOf('export class'));
  return [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
}

describe('the configuration documents', () => {
  it('list every variable the vault reads, in the README and in .env.example', () => {
    const names = variables();
    expect(names).toContain('VAULT_DATABASE_URL');
    const readme = read('README.md');
    const example = read('.env.example');
    for (const name of names) {
      expect(readme, `${name} in the README's table`).toContain(`| \`${name}\``);
      expect(example, `${name} in .env.example`).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
    }
  });
});
