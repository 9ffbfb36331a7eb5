import { z } from 'zod';
import { route } from './route.ts';

/**
 * The groups of the reference, in the order it lists them, each with what it holds: the tags of
 * GET /api/openapi.json and the sections of docs/api.md. Every `tag` of the table has one (a test
 * says which are missing).
 */
export const apiTags: Readonly<Record<string, string>> = {
  'Sign-in': 'Signing in and out with a password and a second factor, and who is signed in.',
  Sessions: 'The places you are signed in, and signing them out.',
  'Second factor':
    'An authenticator app (one-time codes), security keys and backup codes: the second step of signing in.',
  'Access tokens':
    'Personal access tokens for scripts and other tools: created, listed and revoked on the profile (by session only).',
  Profile: 'Your own account (by session only) and the public profiles of the people here.',
  Follows: 'Following people of this vault and of other servers, follow requests and followers.',
  Blocks: 'Blocking people: no follows, shares, cheers or comments between you, either way.',
  Entries: 'The whiskey, wine and beer you log: your entries, your cellar, copies and shares.',
  Cellar:
    'Your cellar beyond the In cellar flag: places, the bottles of an entry, opening one, and the figures.',
  Tastings: 'Tastings of an entry over time: a dated rating, notes and a photo.',
  Shares: 'Sharing an entry with particular people.',
  'Cheers and comments': 'The conversation under an entry, of this vault or of a remote one.',
  Activity: 'The activity feed of the people you follow, and entries from remote vaults.',
  Notifications: 'What happened to your entries and your account.',
  Imports: 'Importing entries from other apps (CSV files).',
  Export: 'Your whole vault as one ZIP file.',
  Backups: 'Backups of the whole vault (admins).',
  Users: 'The admin registry of accounts: every account is provisioned by an admin.',
  Administration: "An admin's care of other people's accounts: their security keys.",
  'Blocked servers': 'Servers an admin has cut off from this vault, and blocking another.',
  Statistics: 'Your figures, and a year in review.',
  API: 'The description of the API itself.',
};

/** The OpenAPI document, as far as a caller may rely on its shape. */
const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The description of the API itself. */
export const metaRoutes = {
  'GET /openapi.json': route({
    summary: 'This API as an OpenAPI 3.1 document',
    description:
      'Generated from the route table every call is served and typed by, so it always says what the vault serves.',
    tag: 'API',
    access: 'public',
    answer: openApiDocumentSchema,
  }),
} as const;
