import {
  createExponentialBackoffPolicy,
  type Federation,
  type HttpMessageSignaturesSpec,
  type RetryPolicy,
  type UnverifiedActivityHandler,
} from '@fedify/fedify';
import { Delete } from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';

const logger = getLogger(['vault', 'federation', 'delivery']);

/**
 * Outbound deliveries sign with draft-cavage HTTP Signatures first, RFC 9421 only if the
 * receiver refuses that (Fedify remembers per server which one worked). Fedify's default is
 * RFC 9421 first, which Mastodon and GoToSocial refuse, so every delivery to a new server would
 * cost a refused request first.
 */
export const FIRST_KNOCK: HttpMessageSignaturesSpec = 'draft-cavage-http-signatures-12';

/**
 * How a failed delivery is retried: after about 1, 2, 4, ... minutes (doubling, each delay
 * randomly stretched by up to 2x), at most 12 hours apart, 13 attempts in all (about two to
 * three days). Then Fedify gives up and logs it; the follower is kept (a long outage is not a
 * departure).
 */
export const DELIVERY_RETRY = {
  initialDelay: { minutes: 1 },
  factor: 2,
  maxDelay: { hours: 12 },
  maxAttempts: 12,
} as const;

/** Inbox answers that end delivery at once (no retry) and report the recipients as gone. */
export const PERMANENT_FAILURE_STATUSES: readonly number[] = [404, 410];

export function deliveryRetryPolicy(): RetryPolicy {
  return createExponentialBackoffPolicy(DELIVERY_RETRY);
}

/**
 * Why the recipients behind an inbox are reported gone: `gone` when the inbox answered 404 or
 * 410; `unreachable` when Fedify's circuit breaker held deliveries to the host past its
 * retention period.
 */
export type DeliveryGoneReason = 'gone' | 'unreachable';

/** Called once for each delivery that fails for good; `actorIds` are the recipients. */
export type DeliveryGoneHandler = (
  inbox: URL,
  actorIds: readonly URL[],
  reason: DeliveryGoneReason,
) => void | Promise<void>;

/** Called when a remote actor that is gone (its key answers 410) sends its own Delete. */
export type ActorGoneHandler = (actorUri: URL) => void | Promise<void>;

export function registerDeliveryFailures(
  federation: Federation<void>,
  onDeliveryGone: DeliveryGoneHandler | undefined,
): void {
  federation.setOutboxPermanentFailureHandler(async (_ctx, failure) => {
    const reason: DeliveryGoneReason = failure.reason === 'http' ? 'gone' : 'unreachable';
    logger.info('Delivery to {inbox} failed for good ({status}); {count} recipients are gone', {
      inbox: failure.inbox.href,
      status: failure.reason === 'http' ? failure.statusCode : failure.reason,
      count: failure.actorIds.length,
    });
    if (!onDeliveryGone) return;
    try {
      await onDeliveryGone(failure.inbox, failure.actorIds, reason);
    } catch (error) {
      logger.error('The handler of a permanent delivery failure failed: {error}', { error });
    }
  });
}

/**
 * An activity whose signature cannot be verified is refused (401), except the Delete of an
 * account that is already gone: its key answers 410, so it can never verify, and a 401 makes
 * the sender retry for days. It is accepted (202) when it is the actor deleting itself
 * (`actor` equals `object`) and the key that answered 410 is on the actor's own origin, so only
 * the actor's own server can cause it; then `onActorGone` cleans up.
 */
export function acceptDeleteOfGoneActor(
  onActorGone: ActorGoneHandler | undefined,
): UnverifiedActivityHandler<void> {
  return async (_ctx, activity, reason) => {
    if (!(activity instanceof Delete)) return;
    if (reason.type !== 'keyFetchError' || !('status' in reason.result)) return;
    if (reason.result.status !== 410) return;
    const actor = activity.actorId;
    if (!actor || activity.objectId?.href !== actor.href) return;
    if (reason.keyId.origin !== actor.origin) return;
    logger.info('{actor} is gone (its key answers 410); accepting its Delete', {
      actor: actor.href,
    });
    try {
      await onActorGone?.(actor);
    } catch (error) {
      logger.error('The handler of a gone actor failed: {error}', { error });
    }
    return new Response(null, { status: 202 });
  };
}
