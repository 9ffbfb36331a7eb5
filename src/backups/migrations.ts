import fs from 'node:fs';
import path from 'node:path';

const JOURNAL = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  'migrations',
  'meta',
  '_journal.json',
);

interface JournalEntry {
  when: number;
  tag: string;
}

/** The migrations this version of the vault knows (drizzle's journal), oldest first. */
export function knownMigrations(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(JOURNAL, 'utf8')) as { entries: JournalEntry[] };
  return journal.entries.map(({ when, tag }) => ({ when, tag }));
}

/** The tag of the migration applied at `millis` (drizzle's created_at), or null. */
export function migrationTag(millis: number): string | null {
  return knownMigrations().find((m) => m.when === millis)?.tag ?? null;
}

/** The newest migration this version knows (its folderMillis). */
export function newestKnownMigration(): number {
  return Math.max(0, ...knownMigrations().map((m) => m.when));
}
