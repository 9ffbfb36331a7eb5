import { route } from './route.ts';

/** Sign-in, sign-out, the second factor (TOTP and security keys) and the user's sessions. */
export const signInRoutes = {} as const;

// Keeps the import used until the table has its first route.
void route;
