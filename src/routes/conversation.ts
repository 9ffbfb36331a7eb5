import { Hono } from 'hono';
import { commentBodySchema, type Comment } from '../../contract/conversation.ts';
import type { AppContext } from '../context.ts';
import type { CommentView, EntryRef } from '../conversation/service.ts';
import { idParam, readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';

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
  };
}

/**
 * Cheers and comments under an entry (contract/conversation.ts): mounted at /beverages for the
 * vault's own entries (`local`) and at /activity/remote-entries for entries received from
 * remote vaults (`remote`).
 */
export function conversationRoutes(ctx: AppContext, kind: EntryRef['kind']): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);
  const service = ctx.conversation;
  const what = kind === 'local' ? 'Beverage' : 'Entry';
  const entryOf = (id: number): EntryRef => ({ kind, id });

  routes.post('/:id/cheer', (c) => {
    const viewer = currentUser(c);
    return c.json(service.cheer(viewer, entryOf(idParam(c, 'id', what))));
  });

  routes.delete('/:id/cheer', (c) => {
    const viewer = currentUser(c);
    return c.json(service.uncheer(viewer, entryOf(idParam(c, 'id', what))));
  });

  routes.get('/:id/comments', (c) => {
    const viewer = currentUser(c);
    const comments = service.comments(viewer, entryOf(idParam(c, 'id', what)));
    return c.json({ comments: comments.map(presentComment) });
  });

  routes.post('/:id/comments', async (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', what);
    const { content } = await readJson(c, commentBodySchema);
    const comment = service.comment(viewer, entryOf(id), content);
    return c.json({ comment: presentComment(comment) }, 201);
  });

  routes.delete('/:id/comments/:commentId', (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', what);
    service.deleteComment(viewer, entryOf(id), idParam(c, 'commentId', 'Comment'));
    return c.body(null, 204);
  });

  return routes;
}
