import type { ActorRepository } from '../actors/repository.ts';
import type { ActivityRow } from '../db/schema/index.ts';
import { payloadOf } from '../outbox/activities.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { NotificationRepository } from './repository.ts';

/**
 * Local delivery of the activities that notify someone: a Follow of a local user becomes their
 * FOLLOW_INVITE (a FOLLOW_REQUEST when the follow waits for them to accept), an Offer (a shared
 * entry) the recipient's SHARE_INVITE, and the Undo of a follow withdraws its invitation or
 * request if still unanswered. Each runs inside the outbox's delivery
 * transaction and is idempotent (one notification per activity and recipient), so a delivery
 * repeated after a crash adds nothing. Remote objects (no local user) are left to federation.
 */
export function registerNotificationDelivery(
  outbox: Outbox,
  deps: { repo: NotificationRepository; actors: ActorRepository },
): void {
  const { repo, actors } = deps;
  const localRecipient = async (activity: ActivityRow) =>
    activity.objectActorId === null ? null : actors.userIdOf(activity.objectActorId);

  outbox.on('Follow', async (activity) => {
    const recipientId = await localRecipient(activity);
    if (recipientId === null) return;
    await repo.add({
      recipientId,
      // A follow that waits for the user to accept it (src/follows/requests.ts).
      type: payloadOf(activity, 'Follow')?.request === true ? 'FOLLOW_REQUEST' : 'FOLLOW_INVITE',
      senderId: activity.actorId,
      activityId: activity.id,
      createdAt: activity.createdAt.getTime(),
    });
  });

  outbox.on('Undo', async (activity) => {
    const recipientId = await localRecipient(activity);
    if (recipientId !== null) await repo.dropPendingFollowInvites(recipientId, activity.actorId);
  });

  outbox.on('Offer', async (activity) => {
    const recipientId = await localRecipient(activity);
    // A share withdrawn (or an entry deleted) before delivery has nothing left to offer.
    if (recipientId === null || activity.shareId === null || activity.beverageId === null) return;
    await repo.add({
      recipientId,
      type: 'SHARE_INVITE',
      senderId: activity.actorId,
      activityId: activity.id,
      beverageId: activity.beverageId,
      shareId: activity.shareId,
      message: payloadOf(activity, 'Offer')?.message || null,
      createdAt: activity.createdAt.getTime(),
    });
  });
}
