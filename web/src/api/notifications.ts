/**
 * The notification calls: GET /notifications (the Alerts panel and its badge) and
 * POST /notifications/{id}/respond, typed from the route table (./call.ts).
 */
import { call } from './call.ts';
import type {
  BeverageStatus,
  NotificationAction,
  RespondBody,
  RespondResult,
  VaultNotification,
} from './types.ts';

/** GET /notifications → field notifications. */
export async function fetchNotifications(): Promise<VaultNotification[]> {
  return (await call('GET /notifications')).notifications;
}

/** One answer to a notification, as the panel's buttons give it. */
export interface Answer {
  action: NotificationAction;
  /** For a share invite's ACCEPT: the list the entry goes into. */
  status?: BeverageStatus;
}

/** The body of POST /notifications/{id}/respond: `status` only with a share's ACCEPT. */
export function respondBody(answer: Answer): RespondBody {
  return answer.action === 'ACCEPT' && answer.status
    ? { action: 'ACCEPT', status: answer.status }
    : { action: answer.action };
}

/**
 * POST /notifications/{id}/respond → the answered notification and, for an accepted share, the
 * entry it put into the caller's vault.
 */
export function respondToNotification(id: number, answer: Answer): Promise<RespondResult> {
  return call('POST /notifications/{id}/respond', { params: { id }, json: respondBody(answer) });
}

/** Notifications still waiting for an answer (the Alerts badge). */
export function pendingCountOf(notifications: readonly VaultNotification[]): number {
  return notifications.filter((item) => item.status === 'PENDING').length;
}
