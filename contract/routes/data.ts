import { route } from './route.ts';

/** Imports, backups, the export and statistics. */
export const dataRoutes = {} as const;

// Keeps the import used until the table has its first route.
void route;
