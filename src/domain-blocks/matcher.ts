const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

/**
 * The blocked servers in memory, so that every inbox delivery and outbound fetch can ask
 * without touching the database. The domain-block service keeps it in step with the table.
 * A blocked `host` covers every port of that host; `host:port` that port only (the port a URL
 * leaves out is its scheme's default).
 */
export interface DomainBlockMatcher {
  /** Whether the server of `url` (an actor, a key id, a document) is blocked. */
  blocksUrl(url: string | URL): boolean;
  /** The blocked domain that covers `url`, if any. */
  blockOf(url: string | URL): string | undefined;
  add(domain: string): void;
  delete(domain: string): void;
}

export function createDomainBlockMatcher(domains: Iterable<string> = []): DomainBlockMatcher {
  const blocked = new Set(domains);
  function blockOf(url: string | URL): string | undefined {
    if (blocked.size === 0) return undefined;
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return undefined;
    }
    const hostname = parsed.hostname.toLowerCase().replace(/\.$/, '');
    if (blocked.has(hostname)) return hostname;
    const port = parsed.port || DEFAULT_PORTS[parsed.protocol];
    const withPort = port ? `${hostname}:${port}` : hostname;
    return blocked.has(withPort) ? withPort : undefined;
  }
  return {
    blocksUrl: (url) => blockOf(url) !== undefined,
    blockOf,
    add: (domain) => void blocked.add(domain),
    delete: (domain) => void blocked.delete(domain),
  };
}
