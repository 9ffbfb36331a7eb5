import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import yauzl from 'yauzl';
import { expect } from 'vitest';
import { jpeg } from './images.ts';
import { json } from './json.ts';
import { ADMIN_PASSWORD, createTestVault, type TestVault } from './vault.ts';

/** Temporary folders of a test file, removed by `removeTemporary()`. */
const temporary: string[] = [];

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-backups-test-'));
  temporary.push(dir);
  return dir;
}

export function removeTemporary() {
  for (const dir of temporary.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Every file of a ZIP, by name. */
export async function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(data, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

/**
 * A ZIP with these files, written to a temporary file. yazl refuses names such as '../x', so
 * `rename` swaps byte strings of the same length in the finished archive.
 */
export async function zipFile(
  files: Record<string, Buffer | string>,
  rename: [string, string] | null = null,
): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  if (rename) {
    bytes = Buffer.from(bytes.toString('latin1').replaceAll(rename[0], rename[1]), 'latin1');
  }
  const file = path.join(tempDir(), 'backup.zip');
  fs.writeFileSync(file, bytes);
  return file;
}

export interface BackupVault {
  vault: TestVault;
  adminCookie: string;
  aliceCookie: string;
  /** The stored path ('media/…') of alice's one entry's photo. */
  photoPath: string;
  /** POST /api/backups as the admin; the new backup's name. */
  makeBackup(): Promise<string>;
}

/** A test vault with an admin and alice, who has logged one entry with a photo. */
export async function backupVault(): Promise<BackupVault> {
  const vault = createTestVault();
  await vault.createUser({ username: 'admin', password: ADMIN_PASSWORD, role: 'ADMIN' });
  const alice = await vault.createUser({ username: 'alice' });
  const adminCookie = await vault.login('admin', ADMIN_PASSWORD);
  const aliceCookie = await vault.login('alice', alice.password);
  const body = new FormData();
  body.append('type', 'WHISKEY');
  body.append('name', 'Lagavulin 16');
  body.append('photo', new Blob([await jpeg(400, 300)], { type: 'image/jpeg' }), 'bottle.jpg');
  const res = await vault.request('/api/beverages', { method: 'POST', body, cookie: aliceCookie });
  expect(res.status).toBe(201);
  const photoPath = (await json(res)).beverage.photoPath as string;
  return {
    vault,
    adminCookie,
    aliceCookie,
    photoPath,
    async makeBackup() {
      const made = await vault.request('/api/backups', { method: 'POST', cookie: adminCookie });
      expect(made.status).toBe(201);
      return (await json(made)).backup.name as string;
    },
  };
}
