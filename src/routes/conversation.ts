import type { Hono } from 'hono';
import type { Comment } from '../../contract/conversation.ts';
import type { AppContext } from '../context.ts';
import type { CommentView, EntryRef } from '../conversation/service.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

export function presentComment(comment: CommentView): Comment {
  return {
    id: comment.id,
    author: {
      fullName: comment.author.fullName,
      username: comment.author.username,
      handle: comment.author.handle,
      avatarUrl: comment.author.avatarUrl,
    },
    content: comment.content,
    createdAt: comment.createdAt.toISOString(),
    canDelete: comment.canDelete,
    parentId: comment.parentId,
    audience: comment.audience,
    deleted: comment.deleted,
    mentions: comment.mentions,
    cheerCount: comment.cheerCount,
    cheeredByMe: comment.cheeredByMe,
  };
}

/**
 * Cheers and comments under an entry, threads and cheers of comments (contract/conversation.ts):
 * mounted at /beverages for the
 * vault's own entries (`local`) and at /activity/remote-entries for entries received from
 * remote vaults (`remote`).
 */
export function conversationRoutes(ctx: AppContext, kind: EntryRef['kind']): Hono<AppEnv> {
  const base = kind === 'local' ? '/beverages' : '/activity/remote-entries';
  const { router, on } = contractRouter<'/beverages' | '/activity/remote-entries'>(base);
  const service = ctx.conversation;
  const what = kind === 'local' ? 'Beverage' : 'Entry';
  const entryOf = (id: number): EntryRef => ({ kind, id });

  on(`POST ${base}/{id}/cheer`, (c) =>
    service.cheer(currentUser(c), entryOf(idParam(c, 'id', what))),
  );

  on(`DELETE ${base}/{id}/cheer`, (c) =>
    service.uncheer(currentUser(c), entryOf(idParam(c, 'id', what))),
  );

  on(`GET ${base}/{id}/comments`, async (c) => {
    const comments = await service.comments(currentUser(c), entryOf(idParam(c, 'id', what)));
    return { comments: comments.map(presentComment) };
  });

  on(`POST ${base}/{id}/comments`, async (c, { body }) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', what);
    const comment = await service.comment(viewer, entryOf(id), body);
    return { comment: presentComment(comment) };
  });

  on(`DELETE ${base}/{id}/comments/{commentId}`, async (c) => {
    const id = idParam(c, 'id', what);
    await service.deleteComment(currentUser(c), entryOf(id), idParam(c, 'commentId', 'Comment'));
  });

  on(`POST ${base}/{id}/comments/{commentId}/cheer`, (c) => {
    const id = idParam(c, 'id', what);
    return service.cheerComment(currentUser(c), entryOf(id), idParam(c, 'commentId', 'Comment'));
  });

  on(`DELETE ${base}/{id}/comments/{commentId}/cheer`, (c) => {
    const id = idParam(c, 'id', what);
    return service.uncheerComment(currentUser(c), entryOf(id), idParam(c, 'commentId', 'Comment'));
  });

  return router;
}
