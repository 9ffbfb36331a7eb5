/**
 * A statement's text as SQLite takes it, rewritten once for PostgreSQL when it is prepared:
 *
 * - Parameters: better-sqlite3's `?` (in order) and `@name` (taken from one object) become
 *   PostgreSQL's `$1`, `$2`…; `valuesOf` lays out each run's values in that order.
 * - Aliases: SQLite keeps the case of `AS parentId`, PostgreSQL folds an unquoted name to
 *   lower case. A camelCase name given with AS is quoted, there and wherever the statement
 *   names it again (ORDER BY parentId), so rows carry the same keys on both engines.
 *
 * Text inside quotes ('…', "…") and comments is left alone.
 */
export interface PositionalText {
  text: string;
  /** The names of the `@name` parameters, by position; empty for `?` parameters. */
  names: readonly string[];
  /** How many `?` parameters the text has. */
  count: number;
}

const WORD_START = /[A-Za-z_]/;
const WORD = /[A-Za-z0-9_]/;
/** Mixed case, so not a type (INTEGER, bigint) nor a snake_case column. */
const CAMEL_CASE = /^[a-z][a-z0-9_]*[A-Z][A-Za-z0-9_]*$/;

/** The end of a quoted run starting at `start` ('it''s' doubles its quote). */
function closing(source: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < source.length) {
    if (source[i] === quote) {
      if (source[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return source.length;
}

/** Where the text that is not SQL (a quoted run, a comment) starting at i ends, or -1. */
function skipped(source: string, i: number): number {
  const ch = source[i];
  if (ch === "'" || ch === '"') return closing(source, i, ch);
  if (ch === '-' && source[i + 1] === '-') {
    const end = source.indexOf('\n', i);
    return end === -1 ? source.length : end;
  }
  if (ch === '/' && source[i + 1] === '*') {
    const end = source.indexOf('*/', i + 2);
    return end === -1 ? source.length : end + 2;
  }
  return -1;
}

function wordAt(source: string, i: number): string {
  let end = i + 1;
  while (end < source.length && WORD.test(source[end]!)) end++;
  return source.slice(i, end);
}

/** The camelCase names the statement gives with AS. */
function camelCaseAliases(source: string): Set<string> {
  const aliases = new Set<string>();
  let previous = '';
  let i = 0;
  while (i < source.length) {
    const end = skipped(source, i);
    if (end !== -1) {
      i = end;
      previous = '';
    } else if (WORD_START.test(source[i]!) && !WORD.test(source[i - 1] ?? ' ')) {
      const word = wordAt(source, i);
      if (previous.toUpperCase() === 'AS' && CAMEL_CASE.test(word)) aliases.add(word);
      previous = word;
      i += word.length;
    } else {
      if (!/\s/.test(source[i]!)) previous = '';
      i++;
    }
  }
  return aliases;
}

export function numberedPlaceholders(source: string): PositionalText {
  const aliases = camelCaseAliases(source);
  let text = '';
  const names: string[] = [];
  const numbers = new Map<string, number>();
  let count = 0;
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    const end = skipped(source, i);
    if (end !== -1) {
      text += source.slice(i, end);
      i = end;
    } else if (ch === '?') {
      count++;
      text += `$${count}`;
      i++;
    } else if (ch === '@' && WORD_START.test(source[i + 1] ?? '')) {
      const name = wordAt(source, i + 1);
      let n = numbers.get(name);
      if (n === undefined) {
        names.push(name);
        n = names.length;
        numbers.set(name, n);
      }
      text += `$${n}`;
      i += name.length + 1;
    } else if (WORD_START.test(ch) && !WORD.test(source[i - 1] ?? ' ')) {
      const word = wordAt(source, i);
      // A qualified column (t.parentId) is never an alias: only bare names are quoted.
      text += aliases.has(word) && source[i - 1] !== '.' ? `"${word}"` : word;
      i += word.length;
    } else {
      text += ch;
      i++;
    }
  }
  if (count > 0 && names.length > 0) {
    throw new Error('A statement takes either ? or @name parameters, not both');
  }
  return { text, names, count };
}

/** The values of one run, in the order of the numbered parameters. */
export function valuesOf(layout: PositionalText, params: readonly unknown[]): unknown[] {
  if (layout.names.length === 0) return params.map(storable);
  const named = (params[0] ?? {}) as Record<string, unknown>;
  return layout.names.map((name) => {
    if (!(name in named)) throw new Error(`Missing named parameter "${name}"`);
    return storable(named[name]);
  });
}

/** A value as both engines store it: undefined is null, a boolean 1 or 0 (as in SQLite). */
function storable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
