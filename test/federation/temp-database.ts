import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openConfiguredDatabase, openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { testDatabase } from '../helpers/postgres.ts';

/**
 * A real, migrated database of its own: a SQLite file in a fresh temporary directory, or on
 * PostgreSQL (`npm run test:postgres`) a database of the test cluster. open() gives another
 * connection to the same database (as a second process would have); remove() closes them all
 * and deletes it. Await `ready` before the first statement.
 */
export function tempDatabase() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-federation-'));
  const file = path.join(dir, 'vault.sqlite');
  const postgres = testDatabase();
  const handles: DatabaseHandle[] = [];
  const open = (): DatabaseHandle => {
    const handle = postgres
      ? openConfiguredDatabase(
          { databasePath: file, databaseUrl: postgres.url, databasePoolSize: 4 },
          // The first connection makes the database; the others find it made.
          handles.length === 0 ? { beforeMigrating: postgres.create } : {},
        )
      : openDatabase(file);
    handles.push(handle);
    return handle;
  };
  const database = open();
  return {
    database,
    ready: database.ready,
    open,
    async remove() {
      for (const handle of handles) await handle.close();
      await postgres?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
