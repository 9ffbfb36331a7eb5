import { z } from 'zod';
import { cheerResponseSchema, commentBodySchema, commentSchema } from '../conversation.ts';
import { route, under } from './route.ts';

const commentList = z.object({ comments: z.array(commentSchema) });
const commentAnswer = z.object({ comment: commentSchema });

/** The routes of an entry's conversation, for an entry of this vault or a remote one. */
function conversation<const B extends string>(base: B, entry: string) {
  const tag = 'Cheers and comments';
  return under(base, {
    'POST /{id}/cheer': route({
      summary: `Cheer ${entry} (again: no change); answers the counts as they now are`,
      tag,
      access: 'write',
      answer: cheerResponseSchema,
      errors: [404],
    }),
    'DELETE /{id}/cheer': route({
      summary: `Take back your cheer of ${entry} (none: no change)`,
      tag,
      access: 'write',
      answer: cheerResponseSchema,
      errors: [404],
    }),
    'GET /{id}/comments': route({
      summary: `The comments under ${entry}, oldest first`,
      tag,
      access: 'read',
      answer: commentList,
      errors: [404],
    }),
    'POST /{id}/comments': route({
      summary: `Comment on ${entry}`,
      tag,
      access: 'write',
      json: commentBodySchema,
      answer: commentAnswer,
      status: 201,
      errors: [400, 404],
    }),
    'DELETE /{id}/comments/{commentId}': route({
      summary: `Delete a comment under ${entry} (its author or the entry's owner may)`,
      tag,
      access: 'write',
      status: 204,
      errors: [403, 404],
    }),
  });
}

/** Entries, their shares and conversation, the activity feed and notifications. */
export const entryRoutes = {
  ...conversation('/beverages', 'an entry of this vault'),
  ...conversation('/activity/remote-entries', 'an entry from a remote vault'),
} as const;
