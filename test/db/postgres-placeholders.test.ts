import { describe, expect, it } from 'vitest';
import { numberedPlaceholders, valuesOf } from '../../src/db/postgres-placeholders.ts';

describe("a statement's text for PostgreSQL", () => {
  it('numbers ? parameters in order, leaving quoted text and comments alone', () => {
    const layout = numberedPlaceholders(
      `SELECT '?' AS q, "a?" FROM t -- why?\nWHERE a = ? AND b = ? /* ? */`,
    );
    expect(layout.text).toBe(
      `SELECT '?' AS q, "a?" FROM t -- why?\nWHERE a = $1 AND b = $2 /* ? */`,
    );
    expect(valuesOf(layout, [1, undefined])).toEqual([1, null]);
  });

  it('numbers each @name once, however often it is used, and stores booleans as 1 or 0', () => {
    const layout = numberedPlaceholders('SELECT @a, @b, @a WHERE x = @b');
    expect(layout.text).toBe('SELECT $1, $2, $1 WHERE x = $2');
    expect(valuesOf(layout, [{ a: true, b: 'x' }])).toEqual([1, 'x']);
    expect(() => valuesOf(layout, [{ a: 1 }])).toThrow('Missing named parameter "b"');
  });

  it('refuses a statement that mixes both kinds', () => {
    expect(() => numberedPlaceholders('SELECT ?, @a')).toThrow('either ? or @name');
  });

  it('quotes a camelCase alias where it is given and named again, and nothing else', () => {
    const layout = numberedPlaceholders(
      `SELECT p.parent_id AS parentId, CAST(n AS INTEGER) AS n, count(*) AS bottleCount,
              'AS notAlias' FROM places p ORDER BY parentId, bottleCount DESC`,
    );
    expect(layout.text).toBe(
      `SELECT p.parent_id AS "parentId", CAST(n AS INTEGER) AS n, count(*) AS "bottleCount",
              'AS notAlias' FROM places p ORDER BY "parentId", "bottleCount" DESC`,
    );
  });
});
