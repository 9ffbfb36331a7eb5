import { route } from './route.ts';

/** Users (the admin's registry), profiles, follows, blocks and blocked servers. */
export const peopleRoutes = {} as const;

// Keeps the import used until the table has its first route.
void route;
