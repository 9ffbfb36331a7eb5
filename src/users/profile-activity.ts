import type { ActorRepository } from '../actors/repository.ts';
import type { UserRow } from '../db/schema/index.ts';
import type { Outbox } from '../outbox/outbox.ts';

/**
 * What of a user a remote server shows: her actor document (federation/actors.ts) holds her
 * name, bio, avatar and whether she approves followers (manuallyApprovesFollowers). Her keys
 * are in it too, but they are made once and never replaced (federation/keys.ts).
 */
export function shownRemotely(before: UserRow, after: UserRow): boolean {
  return (
    before.fullName !== after.fullName ||
    before.bio !== after.bio ||
    before.avatarPath !== after.avatarPath ||
    before.approveFollowers !== after.approveFollowers
  );
}

/**
 * A change of what remote servers show of a user is her activity UpdateProfile, recorded in the
 * outbox inside the write's transaction (src/outbox/), so it commits or rolls back with the
 * change. From there it goes to the servers of her remote followers as an Update(Person)
 * (federation/profile-handoff.ts), when she federates and has any. Every write of those fields
 * calls `record` in its transaction: the profile (profile-service.ts) and the admin's edit
 * (service.ts).
 */
export function createProfileActivity(deps: {
  actors: Pick<ActorRepository, 'localActorId'>;
  outbox: Pick<Outbox, 'record'>;
  now: () => number;
}) {
  return {
    /**
     * Records the activity when the change shows and the user federates; also when she turns
     * federation back on, as her followers kept from before missed what she changed while off.
     */
    async record(before: UserRow, after: UserRow): Promise<void> {
      if (!after.activityPubEnabled) return;
      if (before.activityPubEnabled && !shownRemotely(before, after)) return;
      await deps.outbox.record({
        actorId: await deps.actors.localActorId(after.id),
        type: 'UpdateProfile',
        createdAt: deps.now(),
      });
    },
  };
}

export type ProfileActivity = ReturnType<typeof createProfileActivity>;
