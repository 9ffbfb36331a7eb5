import type { Outbox } from '../src/outbox/outbox.ts';
import type { EntryDeliveryDeps } from './entry-delivery.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first delivery that has somewhere to go (`send`).

/** One Update(Person) to hand to Fedify: whose, and the activity that asked for it. */
export interface ProfileDeliveryJob {
  username: string;
  /** The id of the UpdateProfile activity: the Update's id follows from it. */
  activityId: number;
}

export interface ProfileDeliveryDeps {
  users: EntryDeliveryDeps['users'];
  audience: EntryDeliveryDeps['audience'];
  /** Builds the Update(Person) and puts it in Fedify's queue; loads Fedify on its first call. */
  send(job: ProfileDeliveryJob): Promise<void>;
}

/**
 * A change of what remote servers show of a user (src/users/profile-activity.ts: name, bio,
 * avatar, approve followers) goes to the servers of her remote followers as an Update(Person)
 * whose object is her actor document as /users/{username} serves it (actors.ts), as it is when
 * sent: a later change sends the newer document. Only while she federates and has an accepted
 * remote follower; otherwise nothing leaves the vault.
 *
 * A federating handler of the outbox (src/outbox/handoffs.ts): at least once, with the same
 * activity id each time (from the UpdateProfile activity's id), in order per user.
 */
export function registerProfileDelivery(outbox: Outbox, deps: ProfileDeliveryDeps): void {
  outbox.federate<ProfileDeliveryJob>({
    name: 'profile',
    types: ['UpdateProfile'],
    job(activity, { userId }) {
      const user = deps.users.findById(userId);
      if (!user?.activityPubEnabled || !deps.audience.hasRemoteFollowers(userId)) return undefined;
      return { username: user.username, activityId: activity.id };
    },
    send: deps.send,
  });
}
