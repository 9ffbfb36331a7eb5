import type { ActorRepository } from '../actors/repository.ts';
import type { ActivityRow } from '../db/schema/index.ts';
import type { NotificationRepository } from '../notifications/repository.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { ConversationRepository } from './repository.ts';

/** The id a conversation activity's payload names (`cheerId` or `commentId`), if any. */
function idIn(activity: ActivityRow, name: 'cheerId' | 'commentId'): number | undefined {
  try {
    const value = (JSON.parse(activity.payload ?? 'null') as Record<string, unknown> | null)?.[
      name
    ];
    return typeof value === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Local delivery of cheers and comments: a Like of a local entry becomes its owner's CHEER
 * notification, a Comment their COMMENT notification (the comment's text as its message), unless
 * the owner cheered or commented themself. Each runs inside the outbox's delivery transaction
 * and is idempotent (one notification per activity and recipient). A cheer taken back or a
 * comment deleted before delivery notifies nobody; one deleted after takes its notification
 * with it (notifications.cheer_id and comment_id cascade), so UndoLike and DeleteComment need no
 * local handler. Entries of remote vaults are left to federation.
 */
export function registerConversationNotifications(
  outbox: Outbox,
  deps: {
    repo: ConversationRepository;
    notifications: NotificationRepository;
    actors: ActorRepository;
    /** The owner of a local entry, if it still exists. */
    ownerOf(beverageId: number): number | undefined;
  },
): void {
  const { repo, notifications, actors, ownerOf } = deps;

  /** The entry's owner, when someone else acted on a local entry that still exists. */
  function recipientOf(activity: ActivityRow): number | undefined {
    if (activity.beverageId === null) return undefined;
    const ownerId = ownerOf(activity.beverageId);
    if (ownerId === undefined || actors.userIdOf(activity.actorId) === ownerId) return undefined;
    return ownerId;
  }

  outbox.on('Like', (activity) => {
    const recipientId = recipientOf(activity);
    const cheerId = idIn(activity, 'cheerId');
    if (recipientId === undefined || cheerId === undefined || !repo.cheerExists(cheerId)) return;
    notifications.add({
      recipientId,
      type: 'CHEER',
      senderId: activity.actorId,
      activityId: activity.id,
      beverageId: activity.beverageId,
      cheerId,
      createdAt: activity.createdAt.getTime(),
    });
  });

  outbox.on('Comment', (activity) => {
    const recipientId = recipientOf(activity);
    const commentId = idIn(activity, 'commentId');
    const comment = commentId === undefined ? undefined : repo.commentById(commentId);
    if (recipientId === undefined || !comment) return;
    notifications.add({
      recipientId,
      type: 'COMMENT',
      senderId: activity.actorId,
      activityId: activity.id,
      beverageId: activity.beverageId,
      commentId: comment.id,
      message: comment.content,
      createdAt: activity.createdAt.getTime(),
    });
  });
}
