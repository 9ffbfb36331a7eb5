import { Hono } from 'hono';
import { VAULT_CONTEXT_PATH, vaultContextDocument } from '../../federation/vault-context.ts';
import type { AppEnv } from '../http/env.ts';

/**
 * /ns/vault: the JSON-LD context of the vault's Note extension (federation/vault-context.ts),
 * as application/ld+json, public and cacheable. Notes define their one prefix inline, so no
 * receiver needs it; it documents the terms for JSON-LD processors that follow the namespace.
 * Mounted at /ns (a server path: it never falls through to the client).
 */
export function vaultContextRoutes(origin: string): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const body = JSON.stringify(vaultContextDocument(origin));
  routes.get(VAULT_CONTEXT_PATH.slice('/ns'.length), (c) =>
    c.body(body, 200, {
      'Content-Type': 'application/ld+json',
      'Cache-Control': 'public, max-age=86400',
      'Access-Control-Allow-Origin': '*',
    }),
  );
  return routes;
}
