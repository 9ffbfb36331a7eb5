/**
 * What a failed statement means, whatever the engine said it with: SQLite's extended result
 * codes (better-sqlite3's `code`), PostgreSQL's SQLSTATE (pg's `code`).
 */
function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** A row with the same unique key (or primary key) is already there. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}

/** A row names one that does not exist (or is still named by another). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
