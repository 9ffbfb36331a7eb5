import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';

/**
 * A real, migrated SQLite file in a fresh temporary directory. open() gives another connection
 * to the same file (as a second process would have); remove() closes them all and deletes it.
 */
export function tempDatabase() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-federation-'));
  const file = path.join(dir, 'vault.sqlite');
  const handles: DatabaseHandle[] = [];
  const open = () => {
    const handle = openDatabase(file);
    handles.push(handle);
    return handle;
  };
  return {
    file,
    database: open(),
    open,
    remove() {
      for (const handle of handles) handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
