import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { hashPassword } from '../../src/auth/passwords.ts';
import { startVault, type RunningVault } from '../../src/server.ts';
import { testDatabase } from './postgres.ts';
import { freePort } from './process.ts';
import { sharedTestCertificate } from './tls.ts';
import { sessionCookieFrom, tempConfig } from './vault.ts';

/**
 * A real vault on a loopback port behind its own TLS-terminating proxy, as the README
 * recommends: its origin is https://127.0.0.1:{proxy port}, with the shared self-signed test
 * certificate. Handle lookups (@name@host) go over https, so a vault that others look up by
 * handle runs like this; the process that looks it up must trust the certificate
 * (`sharedTestCertificate().trustInThisProcess()`).
 */
export interface HttpsVault {
  vault: RunningVault;
  origin: string;
  /** name@host, the host part of this vault's handles. */
  host: string;
  /** Creates a federated user (password `${username}-password`) and returns a session cookie. */
  addUser(username: string): Promise<string>;
  close(): Promise<void>;
}

export async function startHttpsVault(): Promise<HttpsVault> {
  const certificate = sharedTestCertificate();
  const [port, proxyPort] = [await freePort(), await freePort()];
  const origin = `https://127.0.0.1:${proxyPort}`;
  // On PostgreSQL each vault gets its own database (test/helpers/postgres.ts).
  const postgres = testDatabase();
  const config = tempConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    VAULT_ORIGIN: origin,
    ...(postgres ? { VAULT_DATABASE_URL: postgres.url } : {}),
  });
  const vault = await startVault(config, {
    allowPrivateAddress: true,
    ...(postgres ? { beforeMigrating: postgres.create } : {}),
  });
  const proxy = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));

  return {
    vault,
    origin,
    host: new URL(origin).host,
    async addUser(username) {
      const row = await vault.ctx.users.insert({
        username,
        fullName: username.replace(/^./, (ch) => ch.toUpperCase()),
        email: `${username}@example.com`,
        role: 'USER',
        passwordHash: await hashPassword(`${username}-password`),
      });
      await vault.ctx.users.update(row.id, { activityPubEnabled: true });
      const res = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ username, password: `${username}-password` }),
      });
      if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status}`);
      return sessionCookieFrom(res);
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await vault.close();
      await postgres?.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
