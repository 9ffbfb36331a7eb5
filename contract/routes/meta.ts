import { route } from './route.ts';

/** The description of the API itself. */
export const metaRoutes = {} as const;

// Keeps the import used until the table has its first route.
void route;
