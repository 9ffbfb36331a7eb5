import type { NotificationType } from '../../contract/enums.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { ActivityRow } from '../db/schema/index.ts';
import type { NotificationRepository } from '../notifications/repository.ts';
import { payloadOf } from '../outbox/activities.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { ConversationRepository, EntryRef } from './repository.ts';

/** The entry an activity of the conversation is under. */
function entryOf(activity: ActivityRow): EntryRef | undefined {
  if (activity.beverageId !== null) return { kind: 'local', id: activity.beverageId };
  if (activity.remoteEntryId !== null) return { kind: 'remote', id: activity.remoteEntryId };
  return undefined;
}

/**
 * Local delivery of cheers and comments (docs/social.md, "Cheers and comments" and "Threads"):
 * - a Like of a local entry becomes its owner's CHEER, unless the owner cheered it;
 * - a Comment (the comment's text as the message) tells each local user concerned once, by the
 *   first that fits: the author of the comment it answers REPLY, the entry's owner COMMENT
 *   (a reply from Mastodon mentions the owner: still a COMMENT), each other user it mentions
 *   MENTION; never its own author;
 * - a LikeComment becomes the comment's local author's COMMENT_CHEER, unless they cheered it.
 * A recipient must be able to see the entry and read the comment (commentReadableSql), so a
 * notification never tells of a reply its recipient cannot read. Each runs inside the
 * outbox's delivery transaction and is idempotent (one notification per activity and
 * recipient). A cheer taken back or a comment deleted before delivery notifies nobody; one
 * deleted after takes its notification with it (notifications.cheer_id, comment_id and
 * comment_cheer_id cascade; a deleted comment kept for its answers hides its notifications),
 * so UndoLike, UndoLikeComment and DeleteComment need no local handler. A remote owner is left
 * to federation.
 */
export function registerConversationNotifications(
  outbox: Outbox,
  deps: {
    repo: ConversationRepository;
    notifications: NotificationRepository;
    actors: ActorRepository;
    /** The owner of a local entry, if it still exists. */
    ownerOf(beverageId: number): Promise<number | undefined>;
    /** Whether the local user may see the entry (src/conversation/service.ts maySee). */
    maySeeEntry(userId: number, entry: EntryRef): Promise<boolean>;
  },
): void {
  const { repo, notifications, actors, ownerOf } = deps;

  /** Whether the user may see the activity's entry and read the comment. */
  async function reads(userId: number, activity: ActivityRow, commentId: number) {
    const entry = entryOf(activity);
    return (
      entry !== undefined &&
      (await deps.maySeeEntry(userId, entry)) &&
      (await repo.canRead(commentId, userId))
    );
  }

  /** Who a comment tells, and how: REPLY before COMMENT before MENTION, its author never. */
  async function recipientsOf(
    activity: ActivityRow,
    commentId: number,
  ): Promise<Map<number, NotificationType>> {
    const found = new Map<number, NotificationType>();
    const tell = (userId: number | null | undefined, type: NotificationType) => {
      if (userId !== null && userId !== undefined && !found.has(userId)) found.set(userId, type);
    };
    const parentId = await repo.parentOf(commentId);
    const parent = parentId == null ? undefined : await repo.commentRow(parentId);
    if (parent) tell(await actors.userIdOf(parent.actorId), 'REPLY');
    if (activity.beverageId !== null) tell(await ownerOf(activity.beverageId), 'COMMENT');
    for (const { actorId, mentioned } of await repo.addresseesOf(commentId)) {
      if (mentioned) tell(await actors.userIdOf(actorId), 'MENTION');
    }
    found.delete((await actors.userIdOf(activity.actorId)) ?? 0);
    return found;
  }

  /** The entry's owner, when someone else acted on a local entry that still exists. */
  async function recipientOf(activity: ActivityRow): Promise<number | undefined> {
    if (activity.beverageId === null) return undefined;
    const ownerId = await ownerOf(activity.beverageId);
    if (ownerId === undefined || (await actors.userIdOf(activity.actorId)) === ownerId) {
      return undefined;
    }
    return ownerId;
  }

  outbox.on('Like', async (activity) => {
    const recipientId = await recipientOf(activity);
    const cheerId = payloadOf(activity, 'Like')?.cheerId;
    if (recipientId === undefined || cheerId === undefined) return;
    if (!(await repo.cheerExists(cheerId))) return;
    await notifications.add({
      recipientId,
      type: 'CHEER',
      senderId: activity.actorId,
      activityId: activity.id,
      beverageId: activity.beverageId,
      cheerId,
      createdAt: activity.createdAt.getTime(),
    });
  });

  outbox.on('Comment', async (activity) => {
    const commentId = payloadOf(activity, 'Comment')?.commentId;
    const comment = commentId === undefined ? undefined : await repo.commentById(commentId);
    if (!comment) return;
    for (const [recipientId, type] of await recipientsOf(activity, comment.id)) {
      if (!(await reads(recipientId, activity, comment.id))) continue;
      await notifications.add({
        recipientId,
        type,
        senderId: activity.actorId,
        activityId: activity.id,
        beverageId: activity.beverageId,
        commentId: comment.id,
        message: comment.content,
        createdAt: activity.createdAt.getTime(),
      });
    }
  });

  outbox.on('LikeComment', async (activity) => {
    const commentCheerId = payloadOf(activity, 'LikeComment')?.commentCheerId;
    const cheer =
      commentCheerId === undefined ? undefined : await repo.commentCheerById(commentCheerId);
    const comment = cheer && (await repo.commentRow(cheer.commentId));
    if (!cheer || !comment) return;
    const recipientId = await actors.userIdOf(comment.actorId);
    if (recipientId === null || recipientId === (await actors.userIdOf(activity.actorId))) return;
    if (!(await reads(recipientId, activity, comment.id))) return;
    await notifications.add({
      recipientId,
      type: 'COMMENT_CHEER',
      senderId: activity.actorId,
      activityId: activity.id,
      beverageId: activity.beverageId,
      commentId: comment.id,
      commentCheerId: cheer.id,
      message: comment.content,
      createdAt: activity.createdAt.getTime(),
    });
  });
}
