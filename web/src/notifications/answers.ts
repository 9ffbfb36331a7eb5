/**
 * What the Alerts panel offers for each notification and what an answer changes (pure, tested in
 * test/web/notification-answers.test.ts).
 */
import type { Answer } from '../api/notifications.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { VaultNotification } from '../api/types.ts';

export const NO_NOTIFICATIONS = 'No notifications yet.';
export const ADDED_TO_TRIED = 'Beverage added to tried vault';
export const ADDED_TO_TO_TRY = 'Beverage added to to-try list';
export const INVITATION_DECLINED = 'Invitation declined';

/** One button of a pending notification. */
export interface AnswerChoice {
  label: string;
  answer: Answer;
  /** The success note once the server has taken it, if any. */
  note?: string;
  /** The main choice is drawn as the primary button. */
  primary?: boolean;
}

/** Whether 'Follow back' means anything: the user neither follows the sender nor has asked to. */
export function canFollowBack(notification: VaultNotification): boolean {
  return !notification.sender.following && !notification.sender.requested;
}

/**
 * Follow invites: 'Follow back' (only while the user does not follow the sender and has no
 * follow request out to them) and 'Dismiss'; follow requests: 'Accept' or 'Decline'; share
 * invites: into tried, into to-try, or no.
 */
export function choicesFor(notification: VaultNotification): AnswerChoice[] {
  if (notification.type === 'FOLLOW_REQUEST') {
    return [
      { label: 'Accept', answer: { action: 'ACCEPT' }, primary: true },
      { label: 'Decline', answer: { action: 'DECLINE' } },
    ];
  }
  if (notification.type === 'FOLLOW_INVITE') {
    const dismiss: AnswerChoice = { label: 'Dismiss', answer: { action: 'DECLINE' } };
    if (!canFollowBack(notification)) return [dismiss];
    return [{ label: 'Follow back', answer: { action: 'ACCEPT' }, primary: true }, dismiss];
  }
  return [
    {
      label: 'Add to tried',
      answer: { action: 'ACCEPT', status: 'TRIED' },
      note: ADDED_TO_TRIED,
      primary: true,
    },
    {
      label: 'Add to to-try',
      answer: { action: 'ACCEPT', status: 'TO_TRY' },
      note: ADDED_TO_TO_TRY,
    },
    { label: 'Decline', answer: { action: 'DECLINE' }, note: INVITATION_DECLINED },
  ];
}

/** What a notification says: who did what. */
export function describe(notification: VaultNotification): string {
  const sender = notification.sender.fullName || notification.sender.username || 'Someone';
  if (notification.type === 'FOLLOW_INVITE') return `${sender} followed you`;
  if (notification.type === 'FOLLOW_REQUEST') return `${sender} asks to follow you`;
  const what = notification.beverage?.name ?? 'an entry';
  return `${sender} shared ${what} with you`;
}

/** What an answered notification shows instead of its buttons; null while pending. */
export function outcomeOf(notification: VaultNotification): string | null {
  if (notification.status === 'PENDING') return null;
  const accepted = notification.status === 'ACCEPTED';
  if (notification.type === 'FOLLOW_INVITE') return accepted ? 'Followed back' : 'Dismissed';
  if (notification.type === 'FOLLOW_REQUEST') return accepted ? 'Accepted' : 'Declined';
  return accepted ? 'Added to your vault' : 'Declined';
}

/** The list with the answered notification in place of its old copy. */
export function withAnswered(
  list: readonly VaultNotification[] | undefined,
  answered: VaultNotification,
): VaultNotification[] | undefined {
  return list?.map((item) => (item.id === answered.id ? answered : item));
}

/**
 * The cached server state an answer makes stale, besides the notifications themselves:
 * following back changes who the user follows (and so the feed, the search marks and profiles);
 * an accepted follow request adds a follower; an accepted share puts an entry into the user's
 * lists.
 */
export function staleAfter(notification: VaultNotification, answer: Answer) {
  if (answer.action !== 'ACCEPT') return [];
  if (notification.type === 'FOLLOW_REQUEST') return [queryKeys.followers];
  if (notification.type === 'FOLLOW_INVITE') {
    return [
      queryKeys.following,
      queryKeys.followers,
      queryKeys.activity,
      queryKeys.userSearch.all,
      queryKeys.profiles,
    ];
  }
  return [queryKeys.beverages.all];
}
