import type Database from 'better-sqlite3';

export interface DomainBlockRecord {
  id: number;
  domain: string;
  note: string;
  createdAt: Date;
}

function recordOf(row: Record<string, unknown>): DomainBlockRecord {
  return {
    id: row.id as number,
    domain: row.domain as string,
    note: row.note as string,
    createdAt: new Date(row.created_at as number),
  };
}

/** The domain_blocks table (src/db/schema/federation.ts). */
export function createDomainBlockRepository(sqlite: Database.Database) {
  const all = sqlite.prepare('SELECT * FROM domain_blocks ORDER BY domain');
  const byId = sqlite.prepare('SELECT * FROM domain_blocks WHERE id = ?');
  const byDomain = sqlite.prepare('SELECT * FROM domain_blocks WHERE domain = ?');
  // A plain INSERT after a look-up: INSERT … ON CONFLICT DO NOTHING would still advance the
  // AUTOINCREMENT sequence, so a refused second block of a host would change a row.
  const insert = sqlite.prepare(
    'INSERT INTO domain_blocks (domain, note, created_at) VALUES (?, ?, ?) RETURNING *',
  );
  const remove = sqlite.prepare('DELETE FROM domain_blocks WHERE id = ?');
  return {
    list(): DomainBlockRecord[] {
      return (all.all() as Record<string, unknown>[]).map(recordOf);
    },
    findById(id: number): DomainBlockRecord | undefined {
      const row = byId.get(id) as Record<string, unknown> | undefined;
      return row ? recordOf(row) : undefined;
    },
    /** The new block, or undefined when the domain is blocked already. */
    insert(domain: string, note: string, at: number): DomainBlockRecord | undefined {
      if (byDomain.get(domain) !== undefined) return undefined;
      return recordOf(insert.get(domain, note, at) as Record<string, unknown>);
    },
    remove(id: number): boolean {
      return remove.run(id).changes > 0;
    },
  };
}

export type DomainBlockRepository = ReturnType<typeof createDomainBlockRepository>;
