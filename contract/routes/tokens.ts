import { route } from './route.ts';

/** Personal access tokens. */
export const tokenRoutes = {} as const;

// Keeps the import used until the table has its first route.
void route;
