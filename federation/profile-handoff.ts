import type { Outbox } from '../src/outbox/outbox.ts';
import type { EntryHandoffDeps } from './entry-handoff.ts';
import type { ProfileDeliveryJob } from './profile-delivery.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first delivery that has somewhere to go (`send`, profile-delivery.ts).

export interface ProfileHandoffDeps {
  users: EntryHandoffDeps['users'];
  audience: EntryHandoffDeps['audience'];
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
export function registerProfileHandoff(outbox: Outbox, deps: ProfileHandoffDeps): void {
  outbox.federate<ProfileDeliveryJob>({
    name: 'profile',
    types: ['UpdateProfile'],
    async job(activity, { userId }) {
      const user = await deps.users.findById(userId);
      if (!user?.activityPubEnabled || !(await deps.audience.hasRemoteFollowers(userId))) {
        return undefined;
      }
      return { username: user.username, activityId: activity.id };
    },
    send: deps.send,
  });
}
