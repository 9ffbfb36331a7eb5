import {
  adminTokenListSchema,
  createdTokenSchema,
  createTokenBodySchema,
  MAX_TOKENS_PER_USER,
  tokenListSchema,
} from '../tokens.ts';
import { route } from './route.ts';

const tag = 'Access tokens';

/** Personal access tokens: all session-only, so that a token can never list or make tokens. */
export const tokenRoutes = {
  'GET /tokens': route({
    summary: 'Your access tokens, newest first (never their secrets)',
    tag,
    access: 'session',
    answer: tokenListSchema,
  }),
  'POST /tokens': route({
    summary: 'Create an access token; the answer holds its secret, shown this once only',
    description: `A person may have at most ${MAX_TOKENS_PER_USER} tokens; one more is refused with 409 until one is revoked.`,
    tag,
    access: 'session',
    json: createTokenBodySchema,
    answer: createdTokenSchema,
    secretAnswer: true,
    status: 201,
    errors: [400, 409],
  }),
  'GET /tokens/all': route({
    summary: "Every user's access tokens with their owner (admins)",
    tag,
    access: 'admin',
    answer: adminTokenListSchema,
  }),
  'DELETE /tokens/{id}': route({
    summary: "Revoke an access token at once (an admin may revoke anyone's)",
    tag,
    access: 'session',
    status: 204,
    errors: [400, 404],
  }),
} as const;
