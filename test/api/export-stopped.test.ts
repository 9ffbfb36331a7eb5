import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.ts';
import { sessionCookieFrom } from '../helpers/vault.ts';

/** GET /api/export on a real server, read by a client that goes away half-way. */
describe('a download that stops half-way', () => {
  /** Files under `folder` this process holds open (the test server runs in it). */
  const openFilesUnder = (folder: string) =>
    fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(folder);
      } catch {
        return false; // closed meanwhile
      }
    }).length;

  it('reads one photo at a time, closes it when the reader goes away, and keeps serving', async () => {
    const server = await startTestServer();
    // A file left open would be closed by the garbage collector, with this warning.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const owner = await server.createUser({ username: 'quitter', password: 'quitter-password' });
      const uploads = server.ctx.config.uploadsDir;
      // 200 entries with a 300 KB photo each: far more than the socket buffers hold.
      const photo = await sharp(randomBytes(600 * 600 * 3), {
        raw: { width: 600, height: 600, channels: 3 },
      })
        .jpeg({ quality: 90 })
        .toBuffer();
      const insert = server.ctx.database.database.prepare(
        `INSERT INTO beverages (user_id, type, name, subtype, maker_name, rating, notes, status,
           in_cellar, photo_path, created_at, updated_at)
         VALUES (?, 'WINE', ?, 'Merlot', '', 4, '', 'TRIED', 0, ?, 0, 0)`,
      );
      for (let i = 0; i < 200; i++) {
        const name = `${randomBytes(16).toString('hex')}.jpg`;
        fs.writeFileSync(path.join(uploads, name), photo);
        await insert.run(owner.id, `Bottle ${i}`, `media/${name}`);
      }
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ username: 'quitter', password: 'quitter-password' }),
      });
      expect(login.status).toBe(200);
      const cookie = sessionCookieFrom(login);

      let received = 0;
      const openWhileReading: number[] = [];
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${server.url}/api/export`, { headers: { cookie } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`GET /api/export: ${res.statusCode}`));
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            openWhileReading.push(openFilesUnder(uploads));
            if (received > 5 * 1024 * 1024) {
              req.destroy();
              resolve();
            }
          });
          res.on('end', () => reject(new Error('the whole export arrived')));
        });
        req.on('error', () => undefined); // the destroy above
      });
      // The photo being read, and at most the one before it while its close completes.
      expect(Math.max(...openWhileReading)).toBeLessThanOrEqual(2);

      const deadline = Date.now() + 10_000;
      while (openFilesUnder(uploads) > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(openFilesUnder(uploads)).toBe(0);
      expect(warnings.filter((w) => /garbage collection/.test(w))).toEqual([]);
      const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
    } finally {
      process.off('warning', onWarning);
      await server.close();
    }
  });
});
