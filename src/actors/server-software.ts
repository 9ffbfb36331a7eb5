import type { Database } from '../db/database.ts';

/** The software name a vault's NodeInfo gives (federation/nodeinfo.ts). */
const VAULT = 'vault';

/** The key of a server's software in federation_kv: the JSON of a key array, as Fedify's. */
const keyOf = (host: string) => JSON.stringify(['vault', 'server-software', host]);

function hostOf(actorUri: string): string | undefined {
  return URL.parse(actorUri)?.host || undefined;
}

/**
 * What software the server of a remote account runs, as its NodeInfo said when an account
 * there was looked up or followed (federation/server-software.ts): one entry per host (its port
 * included), in the key-value table federation_kv under `["vault","server-software",host]`,
 * kept with no expiry and replaced at each lookup. It tells a vault from another server:
 * only a vault's own posts (entries and tastings) show in the activity feed; another server's
 * account sends only replies, cheers and mentions.
 */
export function createServerSoftware(db: Database) {
  const upsert = db.prepare(
    `INSERT INTO federation_kv (key, value, expires_at) VALUES (?, ?, NULL)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = NULL`,
  );
  const select = db.prepare('SELECT value FROM federation_kv WHERE key = ?').pluck<string>();

  async function nameOf(actorUri: string): Promise<string | undefined> {
    const host = hostOf(actorUri);
    const value = host === undefined ? undefined : await select.get(keyOf(host));
    if (value === undefined) return undefined;
    try {
      const name = JSON.parse(value) as unknown;
      return typeof name === 'string' ? name : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    /** Records the software of the account's server (nothing when it is not known). */
    async record(actorUri: string, software: string | null): Promise<void> {
      const host = hostOf(actorUri);
      if (host !== undefined && software) await upsert.run(keyOf(host), JSON.stringify(software));
    },

    /** Whether the software of the account's server is known. */
    async isKnown(actorUri: string): Promise<boolean> {
      return (await nameOf(actorUri)) !== undefined;
    },

    /** Whether the account's server is a vault; null when its software is not known. */
    async isVault(actorUri: string): Promise<boolean | null> {
      const name = await nameOf(actorUri);
      return name === undefined ? null : name === VAULT;
    },
  };
}

export type ServerSoftware = ReturnType<typeof createServerSoftware>;
