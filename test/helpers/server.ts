import fs from 'node:fs';
import { hashPassword } from '../../src/auth/passwords.ts';
import type { Role } from '../../src/db/schema/index.ts';
import { startVault } from '../../src/server.ts';
import { testDatabase } from './postgres.ts';
import { freePort } from './process.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, tempConfig } from './vault.ts';

/**
 * The real vault on a real loopback port with a temporary data directory, serving the built
 * client (web/dist, built once by test/global-setup.ts). For browser and federation tests.
 */
export async function startTestServer(
  options: {
    allowPrivateAddress?: boolean;
    /**
     * The origin's host name. WebAuthn needs 'localhost' (a secure context whose name can be a
     * relying party id; an IP address cannot). The server listens on 127.0.0.1 either way.
     */
    host?: '127.0.0.1' | 'localhost';
    /** More settings (VAULT_… variables), e.g. smaller inbound limits. */
    env?: Record<string, string>;
    /**
     * The server's clock (ms since the epoch), for a test about what the date decides, such as
     * which drinking window an entry is in; the real clock when left out.
     */
    now?: () => number;
  } = {},
) {
  // Port 0 would do, but the origin must be known before start: reserve a free port first.
  const port = await freePort();
  // On PostgreSQL each vault gets its own database (test/helpers/postgres.ts).
  const postgres = testDatabase();
  const config = tempConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    VAULT_ORIGIN: `http://${options.host ?? '127.0.0.1'}:${port}`,
    ...(postgres ? { VAULT_DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  const vault = await startVault(config, {
    allowPrivateAddress: options.allowPrivateAddress ?? true,
    ...(options.now && { now: options.now }),
    ...(postgres ? { beforeMigrating: postgres.create } : {}),
  });
  return {
    url: config.origin,
    ctx: vault.ctx,
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    async createUser(input: {
      username: string;
      password: string;
      role?: Role;
      fullName?: string;
      email?: string;
      activityPubEnabled?: boolean;
    }) {
      const row = await vault.ctx.users.insert({
        username: input.username,
        fullName: input.fullName ?? input.username.replace(/^./, (ch) => ch.toUpperCase()),
        email: input.email ?? `${input.username}@example.com`,
        role: input.role ?? 'USER',
        passwordHash: await hashPassword(input.password),
      });
      return input.activityPubEnabled
        ? (await vault.ctx.users.update(row.id, { activityPubEnabled: true }))!
        : row;
    },
    async close() {
      await vault.close();
      await postgres?.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
