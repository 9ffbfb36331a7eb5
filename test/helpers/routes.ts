import type { Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';
import type { AppEnv } from '../../src/http/env.ts';

/** A route the vault answers: its method and Hono path pattern (`/api/beverages/:id`). */
export interface Route {
  method: string;
  path: string;
}

/**
 * The ActivityPub inboxes. Fedify answers them from a middleware (src/http/federation.ts), so
 * they are not in `app.routes`; they are listed here once.
 */
export const FEDERATION_INBOXES: readonly Route[] = [
  { method: 'POST', path: '/inbox' },
  { method: 'POST', path: '/users/:username/inbox' },
];

export const routeKey = (route: Route) => `${route.method} ${route.path}`;

/**
 * Every route with a real handler in the app's route table (`app.routes`): middleware entries
 * (`app.use`, `requireUser`, …) and catch-alls (`/api/*`, `/*`) are left out, and a route
 * registered with several handlers appears once.
 */
export function appRoutes(app: Hono<AppEnv>): Route[] {
  const seen = new Map<string, Route>();
  for (const { method, path, isMiddleware } of inspectRoutes(app)) {
    if (isMiddleware || path.endsWith('*')) continue;
    const route = { method, path };
    seen.set(routeKey(route), route);
  }
  return [...seen.values()];
}

/** The app's routes plus the ActivityPub inboxes. */
export function allRoutes(app: Hono<AppEnv>): Route[] {
  return [...appRoutes(app), ...FEDERATION_INBOXES];
}

/** The names of a pattern's parameters: `['id']` for `/api/beverages/:id/clone`. */
export function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
}

/** A concrete path: each `:name` replaced by its value, taken as already URL-encoded. */
export function fillPath(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for :${name} in ${pattern}`);
    return value;
  });
}
