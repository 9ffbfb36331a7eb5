import { createHash } from 'node:crypto';
import type { Context, Federation } from '@fedify/fedify';
import { Accept, Follow, Reject, Undo, type Recipient } from '@fedify/vocab';

/** A remote actor as a delivery addresses it. */
export interface FollowRecipient {
  uri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
}

/**
 * One follow activity to send, in plain data: the local user `username` sends it to
 * `recipient`. `follower` follows `followed` through the Follow `followUri`:
 * - Follow: the local user (follower) asks to follow the recipient (followed);
 * - Undo: the local user (follower) takes its Follow back (unfollow);
 * - Accept: the local user (followed) accepts the recipient's Follow;
 * - Reject: the local user (followed) refuses or ends the recipient's follow (a follower
 *   removed).
 */
export interface FollowDeliveryJob {
  kind: 'Follow' | 'Undo' | 'Accept' | 'Reject';
  username: string;
  followUri: string;
  follower: string;
  followed: string;
  recipient: FollowRecipient;
}

/** A stable id for an Accept or Reject of one Follow: the same answer is the same activity. */
function answerId(actorUri: string, kind: 'accepts' | 'rejects', followUri: string): URL {
  const digest = createHash('sha256').update(followUri).digest('hex').slice(0, 32);
  return new URL(`${actorUri}#${kind}/${digest}`);
}

/** The activity of a job, as Fedify serialises it (the Follow embedded in the others). */
export function followActivity(job: FollowDeliveryJob): Follow | Undo | Accept | Reject {
  const follow = new Follow({
    id: new URL(job.followUri),
    actor: new URL(job.follower),
    object: new URL(job.followed),
  });
  switch (job.kind) {
    case 'Follow':
      return follow;
    case 'Undo':
      return new Undo({
        id: new URL(`${job.followUri}/undo`),
        actor: new URL(job.follower),
        object: follow,
      });
    case 'Accept':
      return new Accept({
        id: answerId(job.followed, 'accepts', job.followUri),
        actor: new URL(job.followed),
        object: follow,
      });
    case 'Reject':
      return new Reject({
        id: answerId(job.followed, 'rejects', job.followUri),
        actor: new URL(job.followed),
        object: follow,
      });
  }
}

export function recipientOf(recipient: FollowRecipient): Recipient {
  return {
    id: new URL(recipient.uri),
    inboxId: new URL(recipient.inboxUrl),
    endpoints: recipient.sharedInboxUrl ? { sharedInbox: new URL(recipient.sharedInboxUrl) } : null,
  };
}

/**
 * Puts the job's activity into Fedify's queue, signed as the local user, for the recipient's
 * personal inbox (a follow concerns one account). Resolves once it is queued.
 */
export async function sendFollowActivity(
  context: Context<void>,
  job: FollowDeliveryJob,
): Promise<void> {
  await context.sendActivity(
    { identifier: job.username },
    recipientOf(job.recipient),
    followActivity(job),
    { orderingKey: `follow:${job.follower} ${job.followed}` },
  );
}

/** The same, on a context made for VAULT_ORIGIN (deliveries started off any request). */
export function sendFollowActivityFrom(
  federation: Federation<void>,
  origin: string,
  job: FollowDeliveryJob,
): Promise<void> {
  return sendFollowActivity(federation.createContext(new URL(origin), undefined), job);
}
