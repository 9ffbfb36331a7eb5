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

const DISMISS: AnswerChoice = { label: 'Dismiss', answer: { action: 'DECLINE' } };

/**
 * Follow invites: 'Follow back' (only while the user does not follow the sender and has no
 * follow request out to them) and 'Dismiss'; follow requests: 'Accept' or 'Decline'; share
 * invites: into tried, into to-try, or no; cheers and comments need no answer: 'Dismiss'.
 */
export function choicesFor(notification: VaultNotification): AnswerChoice[] {
  switch (notification.type) {
    case 'FOLLOW_INVITE':
      if (!canFollowBack(notification)) return [DISMISS];
      return [{ label: 'Follow back', answer: { action: 'ACCEPT' }, primary: true }, DISMISS];
    case 'FOLLOW_REQUEST':
      return [
        {
          label: 'Accept',
          answer: { action: 'ACCEPT' },
          note: `${senderName(notification)} now follows you`,
          primary: true,
        },
        {
          label: 'Decline',
          answer: { action: 'DECLINE' },
          note: `Follow request from ${senderName(notification)} declined`,
        },
      ];
    case 'CHEER':
    case 'COMMENT':
    case 'REPLY':
    case 'COMMENT_CHEER':
    case 'MENTION':
      return [DISMISS];
    case 'SHARE_INVITE':
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
}

/** Who sent a notification, as its text names them. */
const senderName = (notification: VaultNotification) =>
  notification.sender.fullName || notification.sender.username || 'Someone';

/** What a notification says: who did what. */
export function describe(notification: VaultNotification): string {
  const sender = senderName(notification);
  const entry = notification.beverage?.name;
  switch (notification.type) {
    case 'FOLLOW_INVITE':
      return `${sender} followed you`;
    case 'FOLLOW_REQUEST':
      return `${sender} asks to follow you`;
    case 'CHEER':
      return `${sender} cheered your ${entry ?? 'entry'}`;
    case 'COMMENT':
      return `${sender} commented on your ${entry ?? 'entry'}`;
    case 'REPLY':
      return `${sender} answered your comment on ${entry ?? 'an entry'}`;
    case 'COMMENT_CHEER':
      return `${sender} cheered your comment on ${entry ?? 'an entry'}`;
    case 'MENTION':
      return entry ? `${sender} mentioned you on ${entry}` : `${sender} mentioned you`;
    case 'SHARE_INVITE':
      return `${sender} shared ${entry ?? 'an entry'} with you`;
  }
}

/** Where a notification leads: a page of the vault, or the original post on another server. */
export interface AlertLink {
  label: string;
  href: string;
  /** On another server: opened in a new tab, without access to this page. */
  external?: true;
}

/** An http(s) address, or null (a notification from elsewhere may carry anything). */
function webAddress(text: string | undefined): string | null {
  if (!text || !URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}

/**
 * Where a notification leads, as a link's text and address: a cheer, comment, reply or mention
 * to its entry with the thread open, on the dashboard; a mention in a post from elsewhere that
 * is no comment here to the original (`payload.url`); null for the others (their buttons are
 * the whole answer).
 */
export function linkOf(notification: VaultNotification): AlertLink | null {
  const entry = notification.beverage;
  if (!entry) {
    const original = notification.type === 'MENTION' && webAddress(notification.payload.url);
    return original ? { label: 'See the post', href: original, external: true } : null;
  }
  switch (notification.type) {
    case 'CHEER':
      return { label: 'See the entry', href: `/?entry=${entry.id}` };
    case 'COMMENT':
    case 'REPLY':
    case 'COMMENT_CHEER':
    case 'MENTION':
      return { label: 'See the comment', href: `/?entry=${entry.id}` };
    default:
      return null;
  }
}

/** What an answered notification shows instead of its buttons; null while pending. */
export function outcomeOf(notification: VaultNotification): string | null {
  if (notification.status === 'PENDING') return null;
  const accepted = notification.status === 'ACCEPTED';
  switch (notification.type) {
    case 'FOLLOW_INVITE':
      return accepted ? 'Followed back' : 'Dismissed';
    case 'FOLLOW_REQUEST':
      return accepted ? 'Accepted' : 'Declined';
    case 'CHEER':
    case 'COMMENT':
    case 'REPLY':
    case 'COMMENT_CHEER':
    case 'MENTION':
      return 'Dismissed';
    case 'SHARE_INVITE':
      return accepted ? 'Added to your vault' : 'Declined';
  }
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
 * lists. Dismissing anything changes nothing else.
 */
export function staleAfter(notification: VaultNotification, answer: Answer) {
  if (answer.action !== 'ACCEPT') return [];
  switch (notification.type) {
    case 'FOLLOW_INVITE':
      return [
        queryKeys.following,
        queryKeys.followers,
        queryKeys.activity,
        queryKeys.userSearch.all,
        queryKeys.profiles,
      ];
    case 'FOLLOW_REQUEST':
      return [queryKeys.followers];
    case 'SHARE_INVITE':
      return [queryKeys.beverages.all];
    case 'CHEER':
    case 'COMMENT':
    case 'REPLY':
    case 'COMMENT_CHEER':
    case 'MENTION':
      return [];
  }
}
