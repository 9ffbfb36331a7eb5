/**
 * The notification calls: GET /notifications (the Alerts panel and its badge) and
 * POST /notifications/{id}/respond. Every call goes through the one API module's `request`.
 */
import { ApiError, INVALID_RESPONSE, request } from './client.ts';
import type {
  BeverageStatus,
  NotificationAction,
  RespondBody,
  RespondResult,
  VaultNotification,
} from './types.ts';

export { fetchNotifications } from './client.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
export async function respondToNotification(id: number, answer: Answer): Promise<RespondResult> {
  const data = await request(`/notifications/${id}/respond`, {
    method: 'POST',
    json: respondBody(answer),
  });
  if (!isRecord(data) || !isRecord(data.notification)) throw new ApiError(INVALID_RESPONSE, 200);
  return data as unknown as RespondResult;
}

/** Notifications still waiting for an answer (the Alerts badge). */
export function pendingCountOf(notifications: readonly VaultNotification[]): number {
  return notifications.filter((item) => item.status === 'PENDING').length;
}
