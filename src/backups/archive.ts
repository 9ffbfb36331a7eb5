import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { BackupManifest } from '../../contract/backups.ts';
import type { Snapshot } from './snapshot.ts';

/**
 * A backup is ONE ZIP file: manifest.json (what it holds, which schema version), vault.sqlite
 * (the database, deflated) and uploads/ (photos and avatars, stored as they are: JPEGs do not
 * compress). Written by streaming to `partFile`, flushed to disk, then renamed to `file`, so a
 * backup file is always whole.
 */
export async function writeBackupZip(options: {
  snapshot: Snapshot;
  manifest: BackupManifest;
  partFile: string;
  file: string;
}): Promise<void> {
  const { snapshot, manifest } = options;
  const zip = new yazl.ZipFile();
  const mtime = new Date(manifest.createdAt);
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime });
  zip.addFile(snapshot.databaseFile, 'vault.sqlite', { mtime });
  for (const file of snapshot.files) {
    zip.addFile(path.join(snapshot.dir, 'uploads', file), `uploads/${file}`, {
      compress: false,
      mtime,
    });
  }
  zip.end();
  const out = fs.createWriteStream(options.partFile, { mode: 0o600 });
  await pipeline(zip.outputStream, out);
  // Flushed in the thread pool: an fsync of a large file would stall the event loop.
  const handle = await fs.promises.open(options.partFile, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(options.partFile, options.file);
}
