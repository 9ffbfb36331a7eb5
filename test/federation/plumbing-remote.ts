import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVaultFederation, type VaultFederationOptions } from '../../federation/index.ts';
import { openConfiguredDatabase } from '../../src/db/client.ts';
import { createUserRepository } from '../../src/users/repository.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { tempConfig } from '../helpers/vault.ts';

/**
 * A small fake fediverse server on loopback for the plumbing tests, written with node:http and
 * node:crypto only (no Fedify): its own RSA key, its own draft-cavage and RFC 9421 signing,
 * its own signature verification. Routes are plain handlers; every request is recorded.
 */

export const AP = 'application/activity+json';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export async function startFakeRemote() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const routes = new Map<string, Route>();
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const route = routes.get(path);
      if (route) route(req, res, body);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** An actor document at `path` whose key is this server's. */
  function actorDocument(path: string) {
    const id = `${origin}${path}`;
    return {
      '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
      id,
      type: 'Person',
      preferredUsername: path.split('/').pop(),
      inbox: `${origin}/inbox`,
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
    };
  }

  return {
    origin,
    publicKeyPem,
    routes,
    received,
    actorDocument,
    /** Serves `path` as an actor (to any GET, or through `guard` when given). */
    serveActor(path: string, guard?: (req: http.IncomingMessage) => boolean) {
      routes.set(path, (req, res) => {
        if (guard && !guard(req)) return void res.writeHead(401).end();
        res.writeHead(200, { 'content-type': AP }).end(JSON.stringify(actorDocument(path)));
      });
    },
    /** Headers of a draft-cavage signed POST of `body` to `url`, as Mastodon signs them. */
    cavageHeaders(url: string, body: string, keyPath = '/actor'): Record<string, string> {
      return cavageSign(privateKey, `${origin}${keyPath}#main-key`, 'POST', new URL(url), body);
    },
    /** Headers of an RFC 9421 signed POST of `body` to `url` (what Fedify sends first). */
    rfc9421Headers(url: string, body: string, keyPath = '/actor'): Record<string, string> {
      return rfc9421Sign(privateKey, `${origin}${keyPath}#main-key`, new URL(url), body);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakeRemote = Awaited<ReturnType<typeof startFakeRemote>>;

function cavageSign(
  key: crypto.KeyObject,
  keyId: string,
  method: string,
  url: URL,
  body: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    host: url.host,
    date: new Date().toUTCString(),
    digest: `SHA-256=${crypto.createHash('sha256').update(body).digest('base64')}`,
    'content-type': AP,
  };
  const names = ['(request-target)', 'host', 'date', 'digest', 'content-type'];
  const target = `${method.toLowerCase()} ${url.pathname}${url.search}`;
  const text = names
    .map((name) => `${name}: ${name === '(request-target)' ? target : headers[name]}`)
    .join('\n');
  const signature = crypto.sign('sha256', Buffer.from(text), key).toString('base64');
  headers.signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  return headers;
}

function rfc9421Sign(
  key: crypto.KeyObject,
  keyId: string,
  url: URL,
  body: string,
): Record<string, string> {
  const contentDigest = `sha-256=:${crypto.createHash('sha256').update(body).digest('base64')}:`;
  const components = ['"@method"', '"@target-uri"', '"@authority"', '"content-digest"'];
  const params = `(${components.join(' ')});created=${Math.floor(Date.now() / 1000)};keyid="${keyId}";alg="rsa-v1_5-sha256"`;
  const base = [
    `"@method": POST`,
    `"@target-uri": ${url.href}`,
    `"@authority": ${url.host}`,
    `"content-digest": ${contentDigest}`,
    `"@signature-params": ${params}`,
  ].join('\n');
  const signature = crypto.sign('sha256', Buffer.from(base), key).toString('base64');
  return {
    host: url.host,
    'content-type': AP,
    'content-digest': contentDigest,
    'signature-input': `sig1=${params}`,
    signature: `sig1=:${signature}:`,
  };
}

/** The parameters of a draft-cavage Signature header, or undefined if it is not one. */
export function parseCavage(header: string | undefined): Record<string, string> | undefined {
  if (!header) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/(\w+)="([^"]*)"/g)) params[match[1]!] = match[2]!;
  return params.keyId && params.headers && params.signature ? params : undefined;
}

/** Whether a request carries a valid draft-cavage signature by the key `publicKeyPem`. */
export function verifyCavage(
  req: { method?: string; url?: string; headers: http.IncomingHttpHeaders },
  publicKeyPem: string,
): boolean {
  const params = parseCavage(req.headers.signature as string | undefined);
  if (!params) return false;
  const text = params
    .headers!.split(' ')
    .map((name) =>
      name === '(request-target)'
        ? `${name}: ${req.method!.toLowerCase()} ${req.url}`
        : `${name}: ${req.headers[name] as string}`,
    )
    .join('\n');
  return crypto.verify(
    'sha256',
    Buffer.from(text),
    publicKeyPem,
    Buffer.from(params.signature!, 'base64'),
  );
}

/** Waits until `check` holds (or throws after `ms`). */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`Timed out after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The vault's federation object alone (no HTTP app) on a temporary SQLite file (on PostgreSQL,
 * a database of its own), with one federated user, alice: for the settings that live in Fedify
 * (callbacks, retries, knocks).
 */
export async function startBareFederation(options: Partial<VaultFederationOptions> = {}) {
  const postgres = testDatabase();
  const config = tempConfig(postgres ? { VAULT_DATABASE_URL: postgres.url } : {});
  const database = openConfiguredDatabase(
    config,
    postgres ? { beforeMigrating: postgres.create } : {},
  );
  const users = createUserRepository(database.database);
  const alice = await users.insert({
    username: 'alice',
    fullName: 'Alice',
    email: 'alice@example.com',
    role: 'USER',
    passwordHash: 'unused',
  });
  await users.update(alice.id, { activityPubEnabled: true });
  const vault = createVaultFederation({
    config,
    database,
    users,
    allowPrivateAddress: true,
    queueOptions: { pollIntervalMs: 50 },
    ...options,
  });
  return {
    ...vault,
    origin: config.origin,
    /** Hands a request to Fedify as the HTTP middleware does. */
    fetch: (request: Request) => vault.federation.fetch(request, { contextData: undefined }),
    context: () => vault.federation.createContext(new URL(config.origin), undefined),
    async close() {
      await vault.stop();
      await database.close();
      await postgres?.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
