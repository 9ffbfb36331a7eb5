import fs from 'node:fs';
import path from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import yauzl from 'yauzl';
import { backupManifestSchema, type BackupManifest } from '../../contract/backups.ts';
import type { Config } from '../config.ts';
import { badRequest, conflict } from '../domain-error.ts';
import { newestKnownMigration } from './migrations.ts';
import { markRunning, running, runningServer } from './server-marker.ts';

/** Names a backup may hold: the manifest, the database, and files of the uploads folder. */
const UPLOAD_NAME = /^uploads\/(?:[a-z0-9_-]+\/)?[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const DATABASE_FILES = ['vault.sqlite', 'vault.sqlite-wal', 'vault.sqlite-shm'];

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the data the restore replaced was moved (inside the data folder). */
  previousDataDir: string;
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');

/** Passes an entry's bytes through, then refuses them if their CRC-32 is not the recorded one. */
async function checked(entry: yauzl.Entry, stream: Readable, to: NodeJS.WritableStream) {
  let crc = 0;
  const sum = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      crc = zlib.crc32(chunk, crc);
      callback(null, chunk);
    },
  });
  await pipeline(stream, sum, to);
  if (crc >>> 0 !== entry.crc32 >>> 0) {
    throw badRequest(`The backup is damaged: ${entry.fileName} does not match its checksum.`);
  }
}

/** Unpacks a backup ZIP into `dir`, refusing anything a backup does not hold. */
async function unpack(file: string, dir: string): Promise<BackupManifest> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, strictFileNames: true });
  } catch (error) {
    throw badRequest(
      `${file} is not a vault backup (not a readable ZIP file: ${(error as Error).message})`,
    );
  }
  let manifest: BackupManifest | undefined;
  let hasDatabase = false;
  const seen = new Set<string>();
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/')) continue;
      if (seen.has(name)) throw badRequest(`The backup holds ${name} twice.`);
      seen.add(name);
      if (name === 'manifest.json') {
        const chunks: Buffer[] = [];
        const collect = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk);
            callback();
          },
        });
        await checked(entry, await zip.openReadStreamPromise(entry), collect);
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw badRequest('The backup manifest is not JSON.');
        }
        const result = backupManifestSchema.safeParse(parsed);
        if (!result.success) throw badRequest('The backup manifest is not one this vault writes.');
        manifest = result.data;
        continue;
      }
      if (name !== 'vault.sqlite' && !UPLOAD_NAME.test(name)) {
        throw badRequest(`The backup holds ${name.slice(0, 200)}, which no vault backup holds.`);
      }
      if (name === 'vault.sqlite') hasDatabase = true;
      const target = path.join(dir, ...name.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await checked(entry, await zip.openReadStreamPromise(entry), fs.createWriteStream(target));
    }
  } catch (error) {
    if ((error as { status?: number }).status) throw error;
    throw badRequest(`The backup is damaged: ${(error as Error).message}`);
  } finally {
    zip.close();
  }
  if (!manifest) throw badRequest('The file has no backup manifest: it is not a vault backup.');
  if (!hasDatabase) throw badRequest('The backup holds no database.');
  return manifest;
}

/** The unpacked database must be whole, a vault's, and no newer than this version knows. */
function checkDatabase(file: string) {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw badRequest(`The backup's database cannot be opened: ${(error as Error).message}`);
  }
  try {
    const ok = db.pragma('integrity_check', { simple: true });
    if (ok !== 'ok') throw badRequest(`The backup's database is damaged: ${String(ok)}`);
    const tables = new Set(
      db.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[],
    );
    for (const table of ['users', 'beverages', '__drizzle_migrations']) {
      if (!tables.has(table)) throw badRequest(`The backup's database has no ${table} table.`);
    }
    const newest = Number(
      db.prepare('select max(created_at) from __drizzle_migrations').pluck().get() ?? 0,
    );
    if (newest > newestKnownMigration()) {
      throw badRequest(
        'The backup was made by a newer version of the vault: upgrade, then restore.',
      );
    }
  } catch (error) {
    if ((error as { status?: number }).status) throw error;
    throw badRequest(`The backup's database is damaged: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/** Why a backup is not restored into a vault on PostgreSQL (yet). */
export const NO_RESTORE_ON_POSTGRES =
  "A vault on PostgreSQL is restored with the database's own tools for now.";

/** Moves `from` to `to` if it exists; returns whether it did. */
function moveIfPresent(from: string, to: string): boolean {
  if (!fs.existsSync(from)) return false;
  fs.renameSync(from, to);
  return true;
}

/**
 * Replaces the vault's database and uploads with a backup's. Refuses while a server runs on the
 * data folder. Everything is checked (the ZIP, the manifest, the database's integrity and
 * schema version) in a staging folder before anything is replaced; the current data (the
 * database, uploads, and unfinished imports, which belong to that database) is then moved
 * aside (kept in <data>/before-restore-<time>/), and moved back if the swap fails. The backups
 * folder is left as it is. A vault on PostgreSQL has no SQLite file to replace: refused.
 */
export async function restoreBackup(config: Config, file: string): Promise<RestoreResult> {
  if (config.databaseUrl !== null) throw conflict(NO_RESTORE_ON_POSTGRES);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const other = running(config.dataDir, 'restore');
  if (other !== null)
    throw conflict(`Another restore (${other}) is under way on ${config.dataDir}.`);
  const marker = markRunning(config.dataDir, 'restore'); // a server refuses to start meanwhile
  // What an interrupted restore left unpacked.
  for (const name of fs.readdirSync(config.dataDir)) {
    if (name.startsWith('.restore-')) {
      fs.rmSync(path.join(config.dataDir, name), { recursive: true, force: true });
    }
  }
  try {
    const server = runningServer(config.dataDir);
    if (server !== null) {
      throw conflict(
        `A vault server (${server}) is running on ${config.dataDir}: stop it, then restore.`,
      );
    }
    return await replaceWith(config, file);
  } finally {
    marker.remove();
  }
}

async function replaceWith(config: Config, file: string): Promise<RestoreResult> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile())
    throw badRequest(`No such file: ${file}`);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const when = stamp();
  const staging = path.join(config.dataDir, `.restore-${when}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging);
  try {
    const manifest = await unpack(file, staging);
    checkDatabase(path.join(staging, 'vault.sqlite'));
    fs.mkdirSync(path.join(staging, 'uploads', 'avatars'), { recursive: true });

    const aside = path.join(config.dataDir, `before-restore-${when}`);
    fs.mkdirSync(aside);
    const moved: [string, string][] = [];
    const placed: string[] = [];
    const uploadsName = path.basename(config.uploadsDir);
    try {
      for (const name of DATABASE_FILES) {
        const from = path.join(path.dirname(config.databasePath), name);
        if (moveIfPresent(from, path.join(aside, name))) moved.push([from, path.join(aside, name)]);
      }
      if (moveIfPresent(config.uploadsDir, path.join(aside, uploadsName))) {
        moved.push([config.uploadsDir, path.join(aside, uploadsName)]);
      }
      // Unfinished imports belong to the database being replaced: they go aside with it.
      const imports = path.join(config.dataDir, 'imports');
      if (moveIfPresent(imports, path.join(aside, 'imports'))) {
        moved.push([imports, path.join(aside, 'imports')]);
      }
      fs.renameSync(path.join(staging, 'vault.sqlite'), config.databasePath);
      placed.push(config.databasePath);
      fs.renameSync(path.join(staging, 'uploads'), config.uploadsDir);
      placed.push(config.uploadsDir);
    } catch (error) {
      // Put back what was there: the vault is as it was before the restore.
      for (const target of placed) fs.rmSync(target, { recursive: true, force: true });
      for (const [from, to] of moved.reverse()) fs.renameSync(to, from);
      fs.rmSync(aside, { recursive: true, force: true });
      throw error;
    }
    return { manifest, previousDataDir: aside };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
