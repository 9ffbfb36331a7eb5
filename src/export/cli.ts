import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { openConfiguredDatabase } from '../db/client.ts';
import { DomainError, badRequest } from '../domain-error.ts';
import { createMediaStore } from '../media/images.ts';
import { createUserRepository } from '../users/repository.ts';
import { createExportRepository } from './repository.ts';
import { createExportService } from './service.ts';

export const EXPORT_USAGE = `  export          --username NAME [--out FILE]   (a user's vault as a ZIP; default file:
                  vault-NAME-YYYY-MM-DD.zip in the current folder)`;

/**
 * `npm run vault -- export --username NAME [--out FILE]`: the same ZIP as GET /api/export,
 * written to FILE.partial and renamed when complete, so a stopped export leaves no file that
 * looks whole. Reads the vault's database (the SQLite file, or the PostgreSQL database
 * VAULT_DATABASE_URL names) alongside a running server.
 */
export async function runExportCommand(args: string[], config: Config): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { username: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  if (!values.username) throw badRequest('export needs --username NAME');
  const database = openConfiguredDatabase(config);
  try {
    const repo = createExportRepository(database.database);
    const users = createUserRepository(database.database);
    const exports = createExportService({
      repo,
      users,
      media: createMediaStore(config.uploadsDir),
    });
    const { fileName, stream } = await exports.exportUser(values.username);
    const out = path.resolve(values.out ?? fileName);
    const partial = `${out}.partial`;
    try {
      await pipeline(stream, fs.createWriteStream(partial));
      fs.renameSync(partial, out);
    } catch (error) {
      fs.rmSync(partial, { force: true });
      if (error instanceof DomainError) throw error;
      throw badRequest(`Could not write ${out}: ${(error as Error).message}`);
    }
    const entries = await repo.count((await users.findByUsername(values.username))!.id);
    const size = (fs.statSync(out).size / 1024 / 1024).toFixed(1);
    console.log(`Exported ${entries} entries of ${values.username} to ${out} (${size} MB)`);
    return 0;
  } finally {
    await database.close();
  }
}
