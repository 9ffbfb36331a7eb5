import { cellarRoutes } from './cellar.ts';
import { dataRoutes } from './data.ts';
import { entryRoutes } from './entries.ts';
import { metaRoutes } from './meta.ts';
import { peopleRoutes } from './people.ts';
import type { AnswerOfDef, RouteTable } from './route.ts';
import { signInRoutes } from './sign-in.ts';
import { tokenRoutes } from './tokens.ts';

/**
 * Every /api route, keyed by `METHOD /path` (contract/routes/route.ts says what a route
 * declares). A test fails when the server serves a route that is not here or the other way
 * round.
 */
export const apiRoutes = {
  ...signInRoutes,
  ...peopleRoutes,
  ...entryRoutes,
  ...cellarRoutes,
  ...dataRoutes,
  ...tokenRoutes,
  ...metaRoutes,
} as const satisfies RouteTable;

export type ApiRoutes = typeof apiRoutes;
export type RouteKey = keyof ApiRoutes & string;
/** The JSON answer of a route (undefined for one without a body). */
export type AnswerOf<K extends RouteKey> = AnswerOfDef<ApiRoutes[K]>;

export type * from './route.ts';
