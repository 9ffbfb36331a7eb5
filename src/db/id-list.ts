import type { Engine, SqlText } from './database.ts';

/**
 * A list of ids bound as one parameter, a JSON array (`JSON.stringify(ids)`), read as a table
 * of its values: SQLite's json_each, PostgreSQL's json_array_elements_text. The subquery on
 * each engine, for the parameter `param` (`?` or `@name`).
 */
export const ID_LIST: Readonly<Record<Engine, (param: string) => string>> = {
  sqlite: (param) => `(SELECT value FROM json_each(${param}))`,
  postgres: (param) =>
    `(SELECT CAST(value AS bigint) AS value FROM json_array_elements_text(CAST(${param} AS json)))`,
};

/**
 * A statement that reads such a list, written once: `ids(param)` stands where the subquery goes.
 *
 *   db.prepare(withIdList((ids) => `SELECT * FROM tastings WHERE id IN ${ids('?')}`))
 */
export function withIdList(text: (ids: (param: string) => string) => string): SqlText {
  return { sqlite: text(ID_LIST.sqlite), postgres: text(ID_LIST.postgres) };
}
