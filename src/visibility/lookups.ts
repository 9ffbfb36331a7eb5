import type { Database } from '../db/database.ts';

/**
 * The lookups the visibility policy makes (src/visibility/policy.ts), each one indexed query:
 * whether one local user follows another (follows_pair_unique through the users' actors), and
 * which of an owner's entries are shared with a user (shares_recipient_idx).
 */
export function createVisibilityLookups(db: Database) {
  const follows = db
    .prepare(
      `SELECT 1 FROM actors fa
       JOIN actors oa ON oa.user_id = ?
       JOIN follows f ON f.follower_id = fa.id AND f.followed_id = oa.id AND f.state = 'ACCEPTED'
       WHERE fa.user_id = ?`,
    )
    .pluck();
  const sharedWith = db
    .prepare(
      `SELECT s.beverage_id FROM shares s JOIN beverages b ON b.id = s.beverage_id
       WHERE s.recipient_id = ? AND b.user_id = ?`,
    )
    .pluck<number>();

  return {
    /** Whether `userId` follows `ownerId` (an accepted follow between two local users). */
    async followsOwner(userId: number, ownerId: number): Promise<boolean> {
      return (await follows.get(ownerId, userId)) !== undefined;
    },
    /** The ids of the owner's entries shared with the user (pending or accepted). */
    sharedByOwnerWith(ownerId: number, userId: number): Promise<number[]> {
      return sharedWith.all(userId, ownerId);
    },
  };
}
