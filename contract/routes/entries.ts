import { z } from 'zod';
import {
  beveragePageSchema,
  beverageQuerySchema,
  beverageResponseSchema,
  cloneBodySchema,
  shareBodySchema,
  visibilityChangeResponseSchema,
  visibilityChangeSchema,
} from '../beverages.ts';
import {
  cheerResponseSchema,
  commentBodySchema,
  commentCheerResponseSchema,
  commentSchema,
} from '../conversation.ts';
import { entryCreateFormSchema, entryUpdateFormSchema } from '../entry-fields.ts';
import {
  activityPageSchema,
  activityQuerySchema,
  notificationListSchema,
  respondBodySchema,
  respondResultSchema,
} from '../social.ts';
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
      summary: `The comments under ${entry} the caller reads, in thread order`,
      description:
        'Each answer comes after the comment it answers (`parentId`), depth first, siblings ' +
        'oldest first; one whose parent the caller cannot read hangs under its nearest ' +
        'ancestor they can read, or at the top.',
      tag,
      access: 'read',
      answer: commentList,
      errors: [404],
    }),
    'POST /{id}/comments': route({
      summary: `Comment on ${entry}, or answer a comment under it`,
      description:
        '`inReplyTo`: the comment answered (one the caller reads, not deleted, else 404); ' +
        "`private`: addressed to that comment's author alone (without `inReplyTo`: 400). " +
        '`@name` and `@name@host` of known accounts become mentions.',
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
    'POST /{id}/comments/{commentId}/cheer': route({
      summary: `Cheer a comment under ${entry} (again: no change)`,
      tag,
      access: 'write',
      answer: commentCheerResponseSchema,
      errors: [404],
    }),
    'DELETE /{id}/comments/{commentId}/cheer': route({
      summary: `Take back your cheer of a comment under ${entry} (none: no change)`,
      tag,
      access: 'write',
      answer: commentCheerResponseSchema,
      errors: [404],
    }),
  });
}

/** The caller's vault: entries, many at once, copies. */
const entries = {
  'GET /beverages': route({
    summary: 'A page of entries the caller may see, newest first, filtered',
    description:
      "Without `userId`: the caller's own entries and those shared with them. With it: that " +
      "user's entries the caller may see. Follow `nextCursor` for the next page.",
    tag: 'Entries',
    access: 'read',
    query: beverageQuerySchema,
    answer: beveragePageSchema,
    errors: [400],
  }),
  'POST /beverages': route({
    summary: 'Log an entry (multipart form data, with an optional photo)',
    tag: 'Entries',
    access: 'write',
    form: entryCreateFormSchema,
    answer: beverageResponseSchema,
    status: 201,
    errors: [400, 413, 415],
  }),
  'PATCH /beverages/visibility': route({
    summary: "Change who sees many of the caller's own entries at once",
    description:
      'Those of `ids`, or with `all` every entry (of a type or list when given); answers how ' +
      'many changed.',
    tag: 'Entries',
    access: 'write',
    json: visibilityChangeSchema,
    answer: visibilityChangeResponseSchema,
    errors: [400, 415],
  }),
  'GET /beverages/{id}': route({
    summary: 'One entry the caller may see',
    tag: 'Entries',
    access: 'read',
    answer: beverageResponseSchema,
    errors: [400, 404],
  }),
  'PATCH /beverages/{id}': route({
    summary: 'Change an entry (multipart form data: any of its fields, a new photo)',
    description: 'Its owner or an admin may. `removePhoto=true` takes the photo away.',
    tag: 'Entries',
    access: 'write',
    form: entryUpdateFormSchema,
    answer: beverageResponseSchema,
    errors: [400, 403, 404, 413, 415],
  }),
  'DELETE /beverages/{id}': route({
    summary: 'Delete an entry (its owner or an admin)',
    tag: 'Entries',
    access: 'write',
    status: 204,
    errors: [400, 403, 404],
  }),
  'POST /beverages/{id}/clone': route({
    summary: "Copy an entry the caller may see into the caller's vault (photo included)",
    description: 'The body may be left out: the copy then goes into the to-try list.',
    tag: 'Entries',
    access: 'write',
    json: cloneBodySchema,
    jsonOptional: true,
    answer: beverageResponseSchema,
    status: 201,
    errors: [400, 404, 415],
  }),
} as const;

/** Sharing an entry with another user of the vault. */
const shares = {
  'POST /beverages/{id}/share': route({
    summary: 'Share an entry with another user of the vault, who is asked to add it',
    tag: 'Shares',
    access: 'write',
    json: shareBodySchema,
    answer: beverageResponseSchema,
    errors: [400, 403, 404, 409, 415],
  }),
  'DELETE /beverages/{id}/share/{shareId}': route({
    summary: 'Take back a share of an entry (its owner or an admin)',
    tag: 'Shares',
    access: 'write',
    status: 204,
    errors: [400, 403, 404],
  }),
} as const;

/** The feed of the people the caller follows, and the caller's notifications. */
const feed = {
  'GET /activity': route({
    summary: 'Entries newly logged by the people the caller follows, local and remote',
    description: 'Newest first, a page at a time: follow `nextCursor` for the next page.',
    tag: 'Activity',
    access: 'read',
    query: activityQuerySchema,
    answer: activityPageSchema,
    errors: [400],
  }),
  'POST /activity/remote-entries/{id}/clone': route({
    summary: "Add an entry received from a remote vault to the caller's vault",
    description:
      "`id` is the remote entry's id in the feed. The body may be left out: the copy then goes " +
      "into the to-try list. 404 for an entry that is not in the caller's feed.",
    tag: 'Activity',
    access: 'write',
    json: cloneBodySchema,
    jsonOptional: true,
    answer: beverageResponseSchema,
    status: 201,
    errors: [400, 404, 415],
  }),
  'GET /notifications': route({
    summary: "The caller's most recent notifications, newest first",
    tag: 'Notifications',
    access: 'read',
    answer: notificationListSchema,
  }),
  'POST /notifications/{id}/respond': route({
    summary: 'Answer a notification: accept or decline a share or a follow request, dismiss others',
    description:
      'Accepting a share takes `status`, the list the entry goes into, and answers the entry ' +
      "now in the caller's vault beside the notification.",
    tag: 'Notifications',
    access: 'write',
    json: respondBodySchema,
    answer: respondResultSchema,
    errors: [400, 404, 409, 415],
  }),
} as const;

/** Entries, their shares and conversation, the activity feed and notifications. */
export const entryRoutes = {
  ...entries,
  ...shares,
  ...feed,
  ...conversation('/beverages', 'an entry of this vault'),
  ...conversation('/activity/remote-entries', 'an entry from a remote vault'),
} as const;
