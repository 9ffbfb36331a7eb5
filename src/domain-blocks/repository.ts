import type { Database } from '../db/database.ts';

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
export function createDomainBlockRepository(db: Database) {
  type Row = Record<string, unknown>;
  const all = db.prepare<Row>('SELECT * FROM domain_blocks ORDER BY domain');
  const byId = db.prepare<Row>('SELECT * FROM domain_blocks WHERE id = ?');
  const byDomain = db.prepare<Row>('SELECT * FROM domain_blocks WHERE domain = ?');
  // A plain INSERT after a look-up: INSERT … ON CONFLICT DO NOTHING would still advance the
  // AUTOINCREMENT sequence, so a refused second block of a host would change a row.
  const insert = db.prepare<Row>(
    'INSERT INTO domain_blocks (domain, note, created_at) VALUES (?, ?, ?) RETURNING *',
  );
  const remove = db.prepare('DELETE FROM domain_blocks WHERE id = ?');
  return {
    async list(): Promise<DomainBlockRecord[]> {
      return (await all.all()).map(recordOf);
    },
    async findById(id: number): Promise<DomainBlockRecord | undefined> {
      const row = await byId.get(id);
      return row ? recordOf(row) : undefined;
    },
    /**
     * The new block, or undefined when the domain is blocked already. The look-up and the
     * insert are one transaction.
     */
    insert(domain: string, note: string, at: number): Promise<DomainBlockRecord | undefined> {
      return db.transaction(async () => {
        if ((await byDomain.get(domain)) !== undefined) return undefined;
        return recordOf((await insert.get(domain, note, at))!);
      });
    },
    async remove(id: number): Promise<boolean> {
      return (await remove.run(id)).changes > 0;
    },
  };
}

export type DomainBlockRepository = ReturnType<typeof createDomainBlockRepository>;
