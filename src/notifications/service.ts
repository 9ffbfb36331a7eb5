import type { EntryView } from '../beverages/repository.ts';
import type { NotificationAction, NotificationType } from '../../contract/enums.ts';
import type { BeverageStatus, Role } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, notFound } from '../domain-error.ts';
import type { NotificationRepository, NotificationView } from './repository.ts';

export interface NotificationViewer {
  id: number;
  role: Role;
}

/** How a share invitation is answered (the sharing service, src/shares/). */
export interface ShareAnswers {
  /** Puts the shared entry into the recipient's vault in that list; returns it as they see it. */
  accept(
    viewer: NotificationViewer,
    shareId: number,
    listStatus: BeverageStatus,
  ): Promise<EntryView>;
  /** Removes the pending share. */
  decline(viewer: NotificationViewer, shareId: number): Promise<void>;
}

/** How a follow invitation's 'Follow back' follows its sender (the follow service). */
export interface FollowBack {
  followUnlessFollowing(viewer: NotificationViewer, userId: number): Promise<void>;
  /** The same for a remote actor (a fediverse account that followed the caller). */
  followBackRemote(viewer: NotificationViewer, actorId: number): Promise<void>;
}

/** How a follow request is answered (src/follows/requests.ts), by the follower's actor id. */
export interface FollowRequestAnswers {
  /** False when the request was withdrawn meanwhile. */
  accept(viewer: NotificationViewer, followerActorId: number): Promise<boolean>;
  decline(viewer: NotificationViewer, followerActorId: number): Promise<void>;
}

export interface RespondInput {
  action: NotificationAction;
  status?: BeverageStatus | undefined;
}

/** News of the conversation, not invitations: only dismissed (DECLINE). */
const NEWS: ReadonlySet<NotificationType> = new Set([
  'CHEER',
  'COMMENT',
  'REPLY',
  'COMMENT_CHEER',
  'MENTION',
]);

/** How many notifications a list holds: the most recent ones. */
export const NOTIFICATION_LIST_LIMIT = 200;

/**
 * The Alerts panel: a user's invitations and their answers. Every check and every write of an
 * answer happen in one transaction, so a refused answer (someone else's notification, answered
 * before, a missing or unexpected status, a withdrawn share) changes nothing.
 */
export function createNotificationService(deps: {
  repo: NotificationRepository;
  shares: ShareAnswers;
  follows: FollowBack;
  requests: FollowRequestAnswers;
  transaction: Transaction;
  now?: () => number;
}) {
  const { repo, shares, follows, requests, transaction } = deps;
  const now = deps.now ?? Date.now;

  async function own(viewer: NotificationViewer, id: number): Promise<NotificationView> {
    const notification = await repo.findOwn(id, viewer.id);
    if (!notification) throw notFound('Notification not found');
    return notification;
  }

  return {
    /** The caller's most recent notifications, newest first. */
    list(viewer: NotificationViewer): Promise<NotificationView[]> {
      return repo.recent(viewer.id, NOTIFICATION_LIST_LIMIT);
    },

    respond(
      viewer: NotificationViewer,
      id: number,
      input: RespondInput,
    ): Promise<{ notification: NotificationView; entry?: EntryView }> {
      return transaction(async () => {
        const notification = await own(viewer, id);
        if (notification.status !== 'PENDING') {
          throw conflict('This notification has already been answered.');
        }
        let entry: EntryView | undefined;
        if (NEWS.has(notification.type)) {
          // News, not an invitation: dismissed with DECLINE, nothing to accept.
          if (input.action === 'ACCEPT' || input.status !== undefined) {
            throw badRequest('A cheer or a comment is only dismissed: answer DECLINE.');
          }
        } else if (notification.type === 'FOLLOW_REQUEST') {
          if (input.status !== undefined) {
            throw badRequest('A follow request is answered without a status.');
          }
          if (input.action === 'ACCEPT') {
            if (!(await requests.accept(viewer, notification.senderActorId))) {
              throw conflict('This follow request was withdrawn.');
            }
          } else {
            await requests.decline(viewer, notification.senderActorId);
          }
        } else if (notification.type === 'FOLLOW_INVITE') {
          if (input.status !== undefined) {
            throw badRequest('A follow invitation is answered without a status.');
          }
          if (input.action === 'ACCEPT') {
            if (notification.senderUserId === null) {
              await follows.followBackRemote(viewer, notification.senderActorId);
            } else {
              await follows.followUnlessFollowing(viewer, notification.senderUserId);
            }
          }
        } else if (input.action === 'ACCEPT') {
          if (input.status === undefined) {
            throw badRequest('Choose TRIED or TO_TRY to add the shared entry to your vault.');
          }
          if (notification.shareId === null) throw conflict('This invitation was withdrawn.');
          entry = await shares.accept(viewer, notification.shareId, input.status);
        } else if (notification.shareId !== null) {
          // Declining a withdrawn share only closes its notification.
          await shares.decline(viewer, notification.shareId);
        }
        const status = input.action === 'ACCEPT' ? 'ACCEPTED' : 'DECLINED';
        if (!(await repo.answer(id, status, now()))) {
          throw conflict('This notification has already been answered.');
        }
        return { notification: await own(viewer, id), ...(entry && { entry }) };
      });
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
