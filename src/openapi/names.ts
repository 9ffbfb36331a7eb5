import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { pascal } from './schemas.ts';

const CONTRACT = path.resolve(import.meta.dirname, '../../contract');

/**
 * The named shapes of the contract: every zod schema a module of contract/ exports as
 * `somethingSchema`, named `Something` (`commentSchema` → `Comment`). The OpenAPI document lists
 * each one used by a route once, under `components/schemas`, so a shape reads the same wherever
 * it appears. The folder is read rather than listed here, so a new contract module needs nothing.
 */
export async function contractSchemaNames(): Promise<Map<z.ZodType, string>> {
  const names = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  const files = fs
    .readdirSync(CONTRACT)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(CONTRACT, file)).href)) as object;
    for (const [exported, value] of Object.entries(module)) {
      if (!exported.endsWith('Schema') || !(value instanceof z.ZodType) || names.has(value))
        continue;
      const base = pascal(exported.slice(0, -'Schema'.length));
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
      taken.add(name);
      names.set(value, name);
    }
  }
  return names;
}
