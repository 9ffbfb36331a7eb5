/**
 * Who may use each route: the table test/api/authorization-matrix.test.ts checks against the
 * app's route table (a route without a row fails, and so does a row without a route).
 *
 * Actors: `anonymous` (no session), `owner` (owns the row's resource, if any), `other` (another
 * plain user) and `admin`. Expected outcomes:
 *  - `'ok'`: a 2xx;
 *  - `'allowed'`: past authorization: neither 401 nor 403 (the made-up input may still be a
 *    400 or a 409), never a 5xx;
 *  - `401`, `403`, `404`: refused with exactly that status (a 404 where a user may only ever
 *    find their own things).
 * Second-factor routes carry the actor's password, from sessions that also entered it within
 * the last minutes, so that re-authentication never decides the outcome.
 */
export type Expected = 'ok' | 'allowed' | 401 | 403 | 404;
export type Actor = 'anonymous' | 'owner' | 'other' | 'admin';

/** What the owner owns, made afresh for each actor's request. */
export type Resource =
  | 'entry'
  | 'comment'
  | 'session'
  | 'key'
  | 'user'
  | 'photo'
  | 'avatar'
  | 'token'
  | 'place'
  | 'bottle'
  | 'tasting';

export interface RequestParts {
  /** Values of the path parameters, by name. */
  params?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
}

export interface RequestInput {
  /** The resource's id, handle or file name. */
  resource: string;
  /** The acting user's username and password (the owner's for anonymous). */
  username: string;
  password: string;
  /** A fresh suffix for names that must be unique. */
  unique: string;
}

export interface Row extends Record<Actor, Expected> {
  resource?: Resource;
  request?: (input: RequestInput) => RequestParts;
}

const everyone = (expected: Expected) =>
  ({ anonymous: expected, owner: expected, other: expected, admin: expected }) as const;
const signedIn = (expected: Expected = 'ok') =>
  ({ ...everyone(expected), anonymous: 401 }) as const;
const adminOnly = { anonymous: 401, owner: 403, other: 403, admin: 'ok' } as const;
/** Owner and admin may; another user is refused. */
const ownerOrAdmin = { anonymous: 401, owner: 'ok', other: 403, admin: 'ok' } as const;
/** Only the owner may; nobody else even finds it. */
const ownerOnly = { anonymous: 401, owner: 'ok', other: 404, admin: 404 } as const;

const withPassword = ({ password }: RequestInput): RequestParts => ({ json: { password } });
const byId = ({ resource }: RequestInput): RequestParts => ({ params: { id: resource } });
/** A comment resource is '{entry id}/{comment id}'. */
const byComment = ({ resource }: RequestInput): RequestParts => {
  const [id, commentId] = resource.split('/') as [string, string];
  return { params: { id, commentId } };
};
/** A bottle's resource is 'entryId/bottleId'. */
const byBottle = ({ resource }: RequestInput): RequestParts => {
  const [id, bottleId] = resource.split('/') as [string, string];
  return { params: { id, bottleId } };
};
/** A tasting's resource is 'entryId/tastingId'. */
const byTasting = ({ resource }: RequestInput): RequestParts => {
  const [id, tastingId] = resource.split('/') as [string, string];
  return { params: { id, tastingId } };
};
const byIdWithPassword = (input: RequestInput) => ({ ...byId(input), ...withPassword(input) });
/** A security key's answer of the right shape that no key made. */
const madeUpKeyResponse = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
};
const unsignedActivity = ({ username }: RequestInput): RequestParts => ({
  params: { username },
  json: {
    '@context': 'https://www.w3.org/ns/activitystreams',
    type: 'Follow',
    actor: 'https://remote.invalid/actor',
    object: `http://localhost:8080/users/${username}`,
  },
});

export const AUTHORIZATION: Record<string, Row> = {
  'GET /api/auth/me': signedIn(),
  'POST /api/auth/login': {
    ...everyone('ok'),
    request: ({ username, password }) => ({ json: { username, password } }),
  },
  // Opens only to a browser holding a pending sign-in (password step passed, factor to come).
  'POST /api/auth/login/totp': { ...everyone(401), request: () => ({ json: { token: '123456' } }) },
  'POST /api/auth/reauthenticate': { ...signedIn(), request: withPassword },
  'POST /api/auth/logout': everyone('ok'),
  'GET /api/auth/sessions': signedIn(),
  'DELETE /api/auth/sessions/:id': { ...ownerOnly, resource: 'session', request: byId },
  'PATCH /api/users/me': { ...signedIn(), request: () => ({ form: { bio: 'Peated, mostly.' } }) },
  'GET /api/users/profiles/:username': {
    ...signedIn(),
    request: ({ username }) => ({ params: { username } }),
  },
  'GET /api/users': adminOnly,
  'POST /api/users': {
    ...adminOnly,
    request: ({ unique }) => ({
      json: {
        username: `carol_${unique}`,
        fullName: 'Carol',
        email: `carol${unique}@example.com`,
        password: `violet harbour lantern ${unique} quince`,
        role: 'USER',
      },
    }),
  },
  'PATCH /api/users/:id': {
    ...adminOnly,
    resource: 'user',
    request: (input) => ({ ...byId(input), json: { fullName: 'Renamed' } }),
  },
  'GET /api/beverages': signedIn(),
  'POST /api/beverages': {
    ...signedIn(),
    request: () => ({ form: { name: 'Lagavulin 16', type: 'WHISKEY' } }),
  },
  'PATCH /api/beverages/:id': {
    ...ownerOrAdmin,
    resource: 'entry',
    request: (input) => ({ ...byId(input), form: { notes: 'Smoky.' } }),
  },
  'DELETE /api/beverages/:id': { ...ownerOrAdmin, resource: 'entry', request: byId },
  // Each user changes the visibility of their own entries only (another's ids are a 404).
  'PATCH /api/beverages/visibility': {
    ...signedIn(),
    request: () => ({ json: { visibility: 'MEMBERS', all: {} } }),
  },
  // Anyone signed in may copy an entry they can see into their own vault.
  'POST /api/beverages/:id/clone': { ...signedIn(), resource: 'entry', request: byId },
  // Every signed-in user of the vault may see a MEMBERS entry (src/visibility/policy.ts).
  'GET /api/beverages/:id': { ...signedIn(), resource: 'entry', request: byId },
  // Sharing is the owner's or an admin's; the made-up recipient may be refused past that.
  'POST /api/beverages/:id/share': {
    ...ownerOrAdmin,
    owner: 'allowed',
    admin: 'allowed',
    resource: 'entry',
    request: (input) => ({ ...byId(input), json: { userId: 1, message: 'Try it' } }),
  },
  'DELETE /api/beverages/:id/share/:shareId': {
    ...ownerOrAdmin,
    owner: 'allowed',
    admin: 'allowed',
    resource: 'entry',
    request: ({ resource }) => ({ params: { id: resource, shareId: '999999' } }),
  },
  // Cheers and comments: whoever may see the entry (a MEMBERS one: every signed-in user).
  'POST /api/beverages/:id/cheer': { ...signedIn(), resource: 'entry', request: byId },
  'DELETE /api/beverages/:id/cheer': { ...signedIn(), resource: 'entry', request: byId },
  'GET /api/beverages/:id/comments': { ...signedIn(), resource: 'entry', request: byId },
  'POST /api/beverages/:id/comments': {
    ...signedIn(),
    resource: 'entry',
    request: (input) => ({ ...byId(input), json: { content: 'Lovely dram.' } }),
  },
  // The owner's comment on the owner's entry: the entry's owner or the author only, not admins.
  'DELETE /api/beverages/:id/comments/:commentId': {
    anonymous: 401,
    owner: 'ok',
    other: 403,
    admin: 403,
    resource: 'comment',
    request: byComment,
  },
  // Cheering a comment: whoever reads it (the owner's comment on a MEMBERS entry: everyone).
  'POST /api/beverages/:id/comments/:commentId/cheer': {
    ...signedIn(),
    resource: 'comment',
    request: byComment,
  },
  'DELETE /api/beverages/:id/comments/:commentId/cheer': {
    ...signedIn(),
    resource: 'comment',
    request: byComment,
  },
  // Following is each signed-in user's own; the search refuses a missing `q` past authorization.
  'GET /api/users/search': signedIn('allowed'),
  'GET /api/users/following': signedIn(),
  'GET /api/users/followers': signedIn(),
  // The owner cannot follow themself (400); others may, once (409 after).
  'POST /api/users/:id/follow': { ...signedIn('allowed'), resource: 'user', request: byId },
  'DELETE /api/users/:id/follow': { ...signedIn('allowed'), resource: 'user', request: byId },
  // Fediverse accounts: a made-up handle, URL or actor id (400, 404, 409 or 422 past the session).
  'POST /api/users/lookup': {
    ...signedIn('allowed'),
    request: () => ({ json: { query: 'not a handle' } }),
  },
  'POST /api/users/remote-follows': {
    ...signedIn('allowed'),
    request: () => ({ json: { actorUri: 'https://remote.invalid/users/nobody' } }),
  },
  'DELETE /api/users/remote-follows/:actorId': {
    ...signedIn('allowed'),
    request: () => ({ params: { actorId: '999999' } }),
  },
  'DELETE /api/users/followers/:actorId': {
    ...signedIn('allowed'),
    request: () => ({ params: { actorId: '999999' } }),
  },
  // Blocks are each signed-in user's own: a made-up username or block id is a 404 for anyone.
  'GET /api/users/blocks': signedIn(),
  'POST /api/users/blocks': {
    ...signedIn('allowed'),
    request: () => ({ json: { username: 'nobody-by-that-name' } }),
  },
  'DELETE /api/users/blocks/:id': {
    ...signedIn('allowed'),
    request: () => ({ params: { id: '999999' } }),
  },
  // Each user's own notifications and feed: another's notification id is a 404.
  'GET /api/notifications': signedIn(),
  'POST /api/notifications/:id/respond': {
    ...signedIn('allowed'),
    request: () => ({ params: { id: '999999' }, json: { action: 'DECLINE' } }),
  },
  'GET /api/activity': signedIn(),
  // Backups of the whole vault: admins only (a made-up backup name is a 404 for them).
  'GET /api/backups': adminOnly,
  // Past authorization on both engines: made on SQLite, refused with 409 on PostgreSQL, where
  // backups are not built yet (docs/scaling.md); test/api/backups.test.ts checks one is made.
  'POST /api/backups': { ...adminOnly, admin: 'allowed' },
  'GET /api/backups/:name': {
    ...adminOnly,
    admin: 404,
    request: () => ({ params: { name: 'vault-backup-20260101-000000-manual.zip' } }),
  },
  'DELETE /api/backups/:name': {
    ...adminOnly,
    admin: 404,
    request: () => ({ params: { name: 'vault-backup-20260101-000000-manual.zip' } }),
  },
  // Blocked servers: admins only (a made-up id is a 404 for them; each block's host is new).
  'GET /api/domain-blocks': adminOnly,
  'POST /api/domain-blocks': {
    ...adminOnly,
    request: ({ unique }) => ({ json: { domain: `blocked-${unique}.example`, note: 'spam' } }),
  },
  'DELETE /api/domain-blocks/:id': {
    ...adminOnly,
    admin: 404,
    request: () => ({ params: { id: '999999' } }),
  },
  // Each user's own vault; another user's only for an admin (?username=).
  'GET /api/export': signedIn(),
  // Each user's own imports: another's (or a made-up) import is a 404, even for an admin.
  'POST /api/imports': signedIn('allowed'),
  'GET /api/imports': signedIn(),
  'GET /api/imports/:id': {
    ...signedIn(404),
    request: () => ({ params: { id: '0123456789abcdef0123456789abcdef' } }),
  },
  'GET /api/imports/:id/report': {
    ...signedIn(404),
    request: () => ({ params: { id: '0123456789abcdef0123456789abcdef' } }),
  },
  // Each user's own statistics.
  'GET /api/tokens': signedIn(),
  'POST /api/tokens': {
    ...signedIn(),
    request: () => ({ json: { name: 'Script', scope: 'read' } }),
  },
  'GET /api/tokens/all': adminOnly,
  // Another user's token is not found; an admin may revoke anyone's.
  'DELETE /api/tokens/:id': {
    anonymous: 401,
    owner: 'ok',
    other: 404,
    admin: 'ok',
    resource: 'token',
    request: byId,
  },
  'GET /api/stats': signedIn(),
  'GET /api/stats/years/:year': { ...signedIn(), request: () => ({ params: { year: '2025' } }) },
  // The cellar's figures and its bottles: each signed-in user gets their own.
  'GET /api/cellar': signedIn(),
  'GET /api/cellar/bottles': signedIn(),
  // Places and bottles are their owner's alone: nobody else finds them, admins neither.
  'GET /api/cellar/places': signedIn(),
  'POST /api/cellar/places': {
    ...signedIn(),
    request: ({ unique }) => ({ json: { name: `Rack ${unique}` } }),
  },
  'PATCH /api/cellar/places/:id': {
    ...ownerOnly,
    resource: 'place',
    request: (input) => ({ ...byId(input), json: { name: `Renamed ${input.unique}` } }),
  },
  'DELETE /api/cellar/places/:id': { ...ownerOnly, resource: 'place', request: byId },
  'GET /api/beverages/:id/bottles': { ...ownerOnly, resource: 'entry', request: byId },
  'POST /api/beverages/:id/bottles': {
    ...ownerOnly,
    resource: 'entry',
    request: (input) => ({ ...byId(input), json: { quantity: 2 } }),
  },
  'PATCH /api/beverages/:id/bottles/:bottleId': {
    ...ownerOnly,
    resource: 'bottle',
    request: (input) => ({ ...byBottle(input), json: { quantity: 3 } }),
  },
  'DELETE /api/beverages/:id/bottles/:bottleId': {
    ...ownerOnly,
    resource: 'bottle',
    request: byBottle,
  },
  'POST /api/beverages/:id/bottles/:bottleId/open': {
    ...ownerOnly,
    resource: 'bottle',
    request: (input) => ({ ...byBottle(input), json: {} }),
  },
  // Tastings: read by whoever may see the entry (a MEMBERS entry here), written by its owner
  // alone (anyone else, admins too, is told the entry is not found).
  'GET /api/beverages/:id/tastings': { ...signedIn(), resource: 'entry', request: byId },
  'POST /api/beverages/:id/tastings': {
    ...ownerOnly,
    resource: 'entry',
    request: (input) => ({ ...byId(input), json: { rating: 4 } }),
  },
  'PATCH /api/beverages/:id/tastings/:tastingId': {
    ...ownerOnly,
    resource: 'tasting',
    request: (input) => ({ ...byTasting(input), json: { rating: 2 } }),
  },
  'DELETE /api/beverages/:id/tastings/:tastingId': {
    ...ownerOnly,
    resource: 'tasting',
    request: byTasting,
  },
  // The description of the API: for anyone.
  'GET /api/openapi.json': everyone('ok'),
  // A remote entry may be cloned only by those whose feed holds it: a made-up one is a 404.
  'POST /api/activity/remote-entries/:id/clone': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999' } }),
  },
  // The same for remote entries: only those whose feed holds it, so a made-up one is a 404.
  'POST /api/activity/remote-entries/:id/cheer': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999' } }),
  },
  'DELETE /api/activity/remote-entries/:id/cheer': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999' } }),
  },
  'GET /api/activity/remote-entries/:id/comments': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999' } }),
  },
  'POST /api/activity/remote-entries/:id/comments': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999' }, json: { content: 'Lovely.' } }),
  },
  'DELETE /api/activity/remote-entries/:id/comments/:commentId': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999', commentId: '1' } }),
  },
  'POST /api/activity/remote-entries/:id/comments/:commentId/cheer': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999', commentId: '1' } }),
  },
  'DELETE /api/activity/remote-entries/:id/comments/:commentId/cheer': {
    ...signedIn(404),
    request: () => ({ params: { id: '999999', commentId: '1' } }),
  },
  'POST /api/webauthn/registration/options': { ...signedIn(), request: withPassword },
  'POST /api/webauthn/registration/verify': {
    ...signedIn('allowed'),
    request: ({ password }) => ({
      json: { ...madeUpKeyResponse, response: { clientDataJSON: 'AAAA' }, password },
    }),
  },
  'GET /api/webauthn/credentials': signedIn(),
  'DELETE /api/webauthn/credentials/:id': {
    ...ownerOnly,
    resource: 'key',
    request: byIdWithPassword,
  },
  // Opens only to a browser holding a pending sign-in.
  'POST /api/webauthn/authentication/verify': {
    ...everyone(401),
    request: () => ({ json: madeUpKeyResponse }),
  },
  'GET /api/webauthn/admin/users/:id/credentials': {
    ...adminOnly,
    resource: 'user',
    request: byId,
  },
  'DELETE /api/webauthn/admin/credentials/:id': {
    ...adminOnly,
    resource: 'key',
    request: byIdWithPassword,
  },
  'POST /api/totp/setup': { ...signedIn(), request: withPassword },
  // Nothing set up to confirm, nothing on to turn off: past authorization, refused for the input.
  'POST /api/totp/verify': {
    ...signedIn('allowed'),
    request: ({ password }) => ({ json: { token: '123456', password } }),
  },
  'POST /api/totp/disable': {
    ...signedIn('allowed'),
    request: ({ password }) => ({ json: { token: '123456', password } }),
  },
  // Avatars are actors' icons, which other servers fetch; bottle photos are for signed-in users.
  'GET /media/avatars/:name': {
    ...everyone('ok'),
    resource: 'avatar',
    request: ({ resource }) => ({ params: { name: resource } }),
  },
  'GET /media/:name': {
    ...signedIn(),
    resource: 'photo',
    request: ({ resource }) => ({ params: { name: resource } }),
  },
  // A federated entry's photo by its capability URL: the token is the permission, without a
  // session; a token that opens nothing is a 404 to everyone (test/federation/entries-*.test.ts).
  'GET /media/f/:name': {
    ...everyone(404),
    request: () => ({ params: { name: `${'A'.repeat(43)}.jpg` } }),
  },
  // The JSON-LD context of the vault's Note extension: public.
  'GET /ns/vault': everyone('ok'),
  // Deliveries must carry an HTTP signature, whoever sends them.
  'POST /inbox': { ...everyone(401), request: unsignedActivity },
  'POST /users/:username/inbox': { ...everyone(401), request: unsignedActivity },
};
