import type { Access, RouteDef } from '../../contract/routes/route.ts';
import type { JsonSchema } from './schemas.ts';

/** Who may call a route, in words (the operation's description and docs/api.md). */
export const ACCESS_WORDS: Record<Access, string> = {
  public: 'Anyone: no sign-in needed.',
  read: 'A signed-in user, by session or by an access token of either scope (`read` or `write`).',
  write:
    'A signed-in user, by session or by an access token with the `write` scope (a `read` token is refused with 403).',
  session:
    'A signed-in user, by session only: the account itself cannot be changed with an access token (403).',
  admin: 'An admin, by session only (anyone else, and any access token, is refused with 403).',
};

/** How a caller proves who they are (`components/securitySchemes`). */
export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'vault_session',
    description:
      'The session cookie set by signing in (`POST /auth/login`). On a vault served over https it is named `__Host-vault_session`. A browser that sends it must also send an `Origin` of the vault itself for anything but GET (a cross-site request is refused with 403).',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A personal access token (`Authorization: Bearer vault_pat_…`), created on the profile under Access tokens. A `read` token may call every route open to `read`; a `write` token also those open to `write`; neither may change the account itself or call admin routes. A token acts as its user with the power of a plain user, even an admin's: admin work needs a session.",
  },
} as const;

/** The security requirement of an operation: none, a session or token, or a session only. */
export function securityOf(access: Access): Record<string, string[]>[] {
  if (access === 'public') return [];
  if (access === 'read' || access === 'write') return [{ sessionCookie: [] }, { bearerToken: [] }];
  return [{ sessionCookie: [] }];
}

interface ErrorAnswer {
  name: string;
  description: string;
}

/** The error answers, each `{ message }` (`components/responses`), by status. */
export const ERROR_ANSWERS: Record<number, ErrorAnswer> = {
  400: { name: 'BadRequest', description: 'The request is not valid; the message says why.' },
  401: {
    name: 'Unauthorized',
    description: 'Not signed in, or the access token is unknown, revoked or expired.',
  },
  403: {
    name: 'Forbidden',
    description:
      'Signed in, but not allowed to do this (the role, the token scope, or the thing is not yours).',
  },
  404: { name: 'NotFound', description: 'There is no such thing, or you may not see it.' },
  409: { name: 'Conflict', description: 'It conflicts with what is already there.' },
  413: { name: 'ContentTooLarge', description: 'The request body is too large.' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The request body is not of the media type the route takes.',
  },
  422: { name: 'UnprocessableContent', description: 'The request cannot be carried out as sent.' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many requests: wait as long as `Retry-After` says, then try again.',
  },
};

/** The error statuses of a route: those its access and its body imply, and its own `errors`. */
export function errorStatuses(def: RouteDef): number[] {
  const statuses = new Set<number>(def.errors ?? []);
  if (def.access !== 'public') statuses.add(401);
  if (def.access === 'write' || def.access === 'session' || def.access === 'admin') {
    statuses.add(403);
  }
  // Access tokens count against a rate limit of their own.
  if (def.access === 'read' || def.access === 'write') statuses.add(429);
  if (def.query || def.json || def.form) statuses.add(400);
  if (def.json || def.form) statuses.add(415);
  if (def.form || def.upload) statuses.add(413);
  // Sent again with its Idempotency-Key, an answer that held a secret is not shown again.
  if (def.secretAnswer) statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

/** The shared error body, `{ message }`. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'What went wrong, for a person to read.' },
  },
  required: ['message'],
};

/** `components/responses`: one per error status, each an `ErrorResponse`. */
export function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, { name, description }] of Object.entries(ERROR_ANSWERS)) {
    responses[name] = {
      description,
      ...(status === '429'
        ? {
            headers: {
              'Retry-After': {
                description: 'Seconds to wait before trying again.',
                schema: { type: 'integer' },
              },
            },
          }
        : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    };
  }
  return responses;
}
