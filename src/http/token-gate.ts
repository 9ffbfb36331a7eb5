import { apiRoutes } from '../../contract/routes/index.ts';
import type { Access, RouteDef } from '../../contract/routes/route.ts';

/** What the gate lets an access token do on a request: call it with that scope, or not at all. */
export type TokenAdmission = 'read' | 'write' | 'refused';

/**
 * One regular expression matching any of the paths of the table under /api (`{name}` is one path
 * segment).
 */
export function anyOf(paths: string[]): RegExp | undefined {
  if (paths.length === 0) return undefined;
  const escaped = paths.map((p) =>
    p
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+'),
  );
  return new RegExp(`^/api(?:${escaped.join('|')})$`);
}

interface MethodPaths {
  refused: RegExp | undefined;
  write: RegExp | undefined;
  read: RegExp | undefined;
}

/**
 * The gate of token requests, compiled once from the route table (contract/routes/): a token
 * may reach only a route of the table whose access is `read` or `write`, or a public GET;
 * every other route, in the table or not, is refused before anything else runs. When a path could be several
 * routes of the table (`/users/me` and `/users/{id}`), the strictest of them decides. Each
 * method costs at most three regular expression tests.
 */
export function compileTokenGate(
  table: Record<string, RouteDef> = apiRoutes,
): (method: string, path: string) => TokenAdmission {
  const byAccess = new Map<string, Record<'refused' | 'write' | 'read', string[]>>();
  for (const [key, def] of Object.entries(table)) {
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    let paths = byAccess.get(method);
    if (!paths) byAccess.set(method, (paths = { refused: [], write: [], read: [] }));
    paths[kindOf(def.access, method)].push(path);
  }
  const compiled = new Map<string, MethodPaths>();
  for (const [method, paths] of byAccess) {
    compiled.set(method, {
      refused: anyOf(paths.refused),
      write: anyOf(paths.write),
      read: anyOf(paths.read),
    });
  }
  return (method, path) => {
    const paths = compiled.get(method === 'HEAD' ? 'GET' : method);
    if (!paths) return 'refused';
    if (paths.refused?.test(path)) return 'refused';
    if (paths.write?.test(path)) return 'write';
    if (paths.read?.test(path)) return 'read';
    return 'refused';
  };
}

/**
 * A public route that reads (GET /openapi.json) answers everyone, a token too; the public
 * writes (signing in and out) make and end sessions, which no token may touch.
 */
function kindOf(access: Access, method: string): 'refused' | 'write' | 'read' {
  if (access === 'public') return method === 'GET' ? 'read' : 'refused';
  return access === 'read' || access === 'write' ? access : 'refused';
}
