// Facts read from the code for the lists of docs/architecture.md and docs/social.md (written by
// `npm run docs:architecture`, scripts/doc-sections.ts) and for the tests that check the prose
// around them (test/lint/architecture-doc.test.ts, test/lint/social-doc.test.ts).
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** Repository-relative paths of the files under `dir` whose names end in `suffix`, sorted. */
export function filesUnder(dir: string, suffix = '.ts'): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(suffix)) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Folders directly under `dir` (repository-relative, with a trailing slash), sorted. */
export function foldersIn(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => `${dir}/${e.name}/`)
    .sort();
}

/** Each schema file of src/db/schema/ with the tables it declares. */
export function schemaFiles(): { file: string; tables: string[] }[] {
  return filesUnder('src/db/schema')
    .filter((file) => !file.endsWith('/index.ts'))
    .map((file) => ({
      file,
      tables: [...read(file).matchAll(/sqliteTable\(\s*'([a-z_0-9]+)'/g)].map((m) => m[1]!),
    }));
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^;]*?\bfrom\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** The repository-relative paths of the files `file` imports by a relative path. */
export function importsOf(file: string): string[] {
  return [...read(file).matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier)));
}

const STATIC_VALUE_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+'(\.[^']+)'/g;

/**
 * The modules of federation/ that load with src/: those src/ imports statically, not as types
 * only, and what they import so in turn (a dynamic import() loads later, on demand).
 */
export function federationLoadedWithSrc(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    for (const m of read(file).matchAll(STATIC_VALUE_IMPORT)) {
      const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[1]!));
      if (!target.startsWith('federation/') || seen.has(target)) continue;
      seen.add(target);
      visit(target);
    }
  };
  for (const file of filesUnder('src')) visit(file);
  return [...seen].sort();
}

/** The modules of federation/ that code under src/ imports, each with its importers. */
export function federationImportsOfSrc(): { module: string; importers: string[] }[] {
  const byModule = new Map<string, Set<string>>();
  for (const file of filesUnder('src')) {
    for (const target of importsOf(file).filter((t) => t.startsWith('federation/'))) {
      const importers = byModule.get(target) ?? new Set<string>();
      importers.add(file);
      byModule.set(target, importers);
    }
  }
  return [...byModule]
    .map(([module, importers]) => ({ module, importers: [...importers].sort() }))
    .sort((a, b) => a.module.localeCompare(b.module));
}

const serverCode = () => [...filesUnder('src'), ...filesUnder('federation')];

/**
 * A statement written out: a string given to a prepare or exec (the Database's, or
 * better-sqlite3's where SQLite itself is meant), or drizzle's sql``.
 */
export const HOLDS_SQL =
  /\.prepare(?:<[^>]*>)?\(\s*[`'"]|\.prepare(?:<[^>]*>)?\(\n|\.exec\(\s*[`'"]|\bsql`/;

/** The server modules that hold SQL, but the schema's (its defaults and checks). */
export function sqlModules(): string[] {
  return serverCode().filter(
    (file) => !file.startsWith('src/db/schema/') && HOLDS_SQL.test(read(file)),
  );
}

/** The modules outside src/db/ that use drizzle's query builder (they import src/db/orm.ts). */
export function queryBuilderModules(): string[] {
  return serverCode().filter(
    (file) => !file.startsWith('src/db/') && importsOf(file).includes('src/db/orm.ts'),
  );
}

export type LocalHandler = { type: string; file: string };
export type FederatingHandler = { name: string; types: string[]; file: string };

/** The outbox's handlers as registered in the code: `outbox.on(type, …)`, `outbox.federate({ name, types, … })`. */
export function outboxHandlers(): { local: LocalHandler[]; federating: FederatingHandler[] } {
  const local: LocalHandler[] = [];
  const federating: FederatingHandler[] = [];
  for (const file of [...filesUnder('src'), ...filesUnder('federation')]) {
    const text = read(file);
    for (const m of text.matchAll(/\boutbox\.on\(\s*'(\w+)'/g)) local.push({ type: m[1]!, file });
    const registration = /\.federate(?:<[^>]*>)?\(\{\s*name:\s*'([^']+)',\s*types:\s*\[([^\]]*)\]/g;
    for (const m of text.matchAll(registration)) {
      const types = [...m[2]!.matchAll(/'(\w+)'/g)].map((t) => t[1]!);
      federating.push({ name: m[1]!, types, file });
    }
  }
  if (local.length === 0 || federating.length === 0) {
    throw new Error(
      'Found no outbox handler: the registrations changed shape, update scripts/code-facts.ts',
    );
  }
  return { local, federating };
}

/** Each file of the route table (contract/routes/) but the index and the types, with its routes' count and tags. */
export async function routeTableFiles(): Promise<
  { file: string; routes: number; tags: string[] }[]
> {
  const result = [];
  for (const file of filesUnder('contract/routes')) {
    if (file.endsWith('/index.ts')) continue; // it spreads the others
    const module = (await import(path.join(ROOT, file))) as Record<string, unknown>;
    let routes = 0;
    const tags = new Set<string>();
    for (const value of Object.values(module)) {
      if (typeof value !== 'object' || value === null) continue;
      for (const [key, def] of Object.entries(value)) {
        if (!/^(GET|POST|PUT|PATCH|DELETE) \//.test(key)) continue;
        routes += 1;
        const tag = (def as { tag?: unknown }).tag;
        if (typeof tag === 'string') tags.add(tag);
      }
    }
    result.push({ file, routes, tags: [...tags].sort() });
  }
  return result;
}

/** Each document of docs/ with its title (its first line's heading). */
export function docsFiles(): { file: string; title: string }[] {
  return filesUnder('docs', '.md').map((file) => ({
    file,
    title: /^# (.+)$/m.exec(read(file))?.[1] ?? '',
  }));
}

/** The fields of `RouteDef` (contract/routes/route.ts), what a route of the table may say. */
export function routeDefFields(): string[] {
  const text = read('contract/routes/route.ts');
  const body = /export interface RouteDef \{\n([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
}
