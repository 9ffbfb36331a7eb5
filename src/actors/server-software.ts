import type Database from 'better-sqlite3';

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
export function createServerSoftware(sqlite: Database.Database) {
  const upsert = sqlite.prepare(
    `INSERT INTO federation_kv (key, value, expires_at) VALUES (?, ?, NULL)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = NULL`,
  );
  const select = sqlite.prepare('SELECT value FROM federation_kv WHERE key = ?').pluck();

  function nameOf(actorUri: string): string | undefined {
    const host = hostOf(actorUri);
    const value = host === undefined ? undefined : (select.get(keyOf(host)) as string | undefined);
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
    record(actorUri: string, software: string | null): void {
      const host = hostOf(actorUri);
      if (host !== undefined && software) upsert.run(keyOf(host), JSON.stringify(software));
    },

    /** Whether the software of the account's server is known. */
    isKnown(actorUri: string): boolean {
      return nameOf(actorUri) !== undefined;
    },

    /** Whether the account's server is a vault; null when its software is not known. */
    isVault(actorUri: string): boolean | null {
      const name = nameOf(actorUri);
      return name === undefined ? null : name === VAULT;
    },
  };
}

export type ServerSoftware = ReturnType<typeof createServerSoftware>;
