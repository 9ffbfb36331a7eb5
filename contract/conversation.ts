import { z } from 'zod';
import { COMMENT_AUDIENCES } from './enums.ts';

/**
 * Cheers and comments on an entry: the conversation under it. The same shapes serve a local
 * entry (`/beverages/{id}/…`) and an entry received from a remote vault
 * (`/activity/remote-entries/{id}/…`). Anyone who may see the entry may cheer it once and
 * comment on it; a comment is read by those of them its audience names (docs/social.md, "Who
 * reads a reply").
 *
 *  - `POST …/{id}/cheer` cheers (again: no change), `DELETE …/{id}/cheer` takes it back (none:
 *    no change); both answer `CheerResponse`, the counts as they now are.
 *  - `GET …/{id}/comments` answers `CommentList`; `POST …/{id}/comments` `CommentBody` answers
 *    201 `CommentResponse`; `DELETE …/{id}/comments/{commentId}` answers 204 (the comment's
 *    author or the entry's owner only, else 403).
 *  - `POST` and `DELETE …/{id}/comments/{commentId}/cheer` cheer a comment and take the cheer
 *    back; both answer `CommentCheerResponse`.
 *  - Errors are `{ message }`: 404 for an entry the caller cannot see ('Beverage not found', or
 *    'Entry not found' for a remote one) and for a comment not under it, not read by the
 *    caller or deleted ('Comment not found'), 400 for an empty ('Comment is required') or too
 *    long comment, and for `private` without `inReplyTo` ('A private reply answers a comment').
 */

/** The longest comment, in characters. */
export const COMMENT_MAX_LENGTH = 1000;

/** What an entry's JSON says of its conversation (the Beverage and remote entry shapes gain it). */
export const conversationCountsSchema = z.object({
  cheerCount: z.number().int(),
  cheeredByMe: z.boolean(),
  commentCount: z.number().int(),
});
export type ConversationCounts = z.infer<typeof conversationCountsSchema>;

/** The counts of an entry nobody has cheered or commented yet (a new one). */
export const NO_CONVERSATION: ConversationCounts = {
  cheerCount: 0,
  cheeredByMe: false,
  commentCount: 0,
};

/**
 * Who wrote a comment: a user of this vault (`username`, no `handle`) or a fediverse account
 * (`handle` '@name@host', no `username`). `avatarUrl` is a path on this vault or an https URL.
 */
export const commentAuthorSchema = z.object({
  fullName: z.string(),
  username: z.string().nullable(),
  handle: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type CommentAuthor = z.infer<typeof commentAuthorSchema>;

/**
 * A mention in a comment: `text` as it appears in `content` ('@bob' or '@ann@example.social'),
 * and whom it names: a user of this vault (`username`) or a fediverse account (`handle`).
 */
export const commentMentionSchema = z.object({
  text: z.string(),
  username: z.string().nullable(),
  handle: z.string().nullable(),
});
export type CommentMention = z.infer<typeof commentMentionSchema>;

/**
 * One comment. `content` is plain text (a remote comment's HTML is reduced to text with its
 * links written out): the client makes links clickable and renders nothing else as markup.
 * `canDelete` when the caller wrote it or owns the entry.
 *
 * `parentId`: the comment it answers (null: it answers the entry); the list puts every answer
 * after its parent. `audience` (contract/enums.ts): DIRECT is a private reply, read only by its
 * author and the people it is addressed to. `deleted`: a deleted comment kept for its answers
 * (its `content` is '' and its author's names are empty). `mentions`: the people it mentions.
 */
export const commentSchema = z.object({
  id: z.number().int(),
  author: commentAuthorSchema,
  content: z.string(),
  createdAt: z.string(),
  canDelete: z.boolean(),
  parentId: z.number().int().nullable(),
  audience: z.enum(COMMENT_AUDIENCES),
  deleted: z.boolean(),
  mentions: z.array(commentMentionSchema),
  cheerCount: z.number().int(),
  cheeredByMe: z.boolean(),
});
export type Comment = z.infer<typeof commentSchema>;

/**
 * GET …/comments: in thread order, each answer after its parent (depth first, siblings oldest
 * first); an answer whose parent the caller cannot read names its nearest readable ancestor.
 */
export const commentListSchema = z.object({ comments: z.array(commentSchema) });
export type CommentList = z.infer<typeof commentListSchema>;

/**
 * POST …/comments. `inReplyTo`: the id of the comment it answers, under the same entry.
 * `private`: the answer is addressed to that comment's author alone (needs `inReplyTo`).
 */
export const commentBodySchema = z
  .object({
    content: z
      .string({ error: 'Comment is required' })
      .trim()
      .min(1, { error: 'Comment is required' })
      .max(COMMENT_MAX_LENGTH, {
        error: `Comment must be at most ${COMMENT_MAX_LENGTH} characters`,
      }),
    inReplyTo: z
      .number({ error: 'inReplyTo must be a comment id' })
      .int({ error: 'inReplyTo must be a comment id' })
      .positive({ error: 'inReplyTo must be a comment id' })
      .optional(),
    private: z.boolean({ error: 'private must be true or false' }).optional(),
  })
  .strict();
export type CommentBody = z.infer<typeof commentBodySchema>;

export const commentResponseSchema = z.object({ comment: commentSchema });
export type CommentResponse = z.infer<typeof commentResponseSchema>;

/** POST and DELETE …/comments/{commentId}/cheer answer the comment's cheers as they now are. */
export const commentCheerResponseSchema = z.object({
  cheerCount: z.number().int(),
  cheeredByMe: z.boolean(),
});
export type CommentCheerResponse = z.infer<typeof commentCheerResponseSchema>;

/** POST and DELETE …/cheer answer the entry's counts as they now are. */
export const cheerResponseSchema = conversationCountsSchema;
export type CheerResponse = z.infer<typeof cheerResponseSchema>;
