import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { SessionService } from '../auth/sessions.ts';
import type { LoginThrottle } from '../auth/throttle.ts';
import type { UserRow, Visibility } from '../db/schema/index.ts';
import { badRequest, notFound } from '../domain-error.ts';
import { AVATAR, type MediaStore } from '../media/images.ts';
import type { Transaction } from '../db/transaction.ts';
import type { ProfileActivity } from './profile-activity.ts';
import type { UserRepository } from './repository.ts';
import { refuseCommonPassword } from './rules.ts';

export interface ProfileChanges {
  fullName?: string | undefined;
  email?: string | undefined;
  bio?: string | undefined;
  activityPubEnabled?: boolean | undefined;
  /** The visibility of new entries (src/visibility/policy.ts). */
  defaultVisibility?: Visibility | undefined;
  /** Whether follows are requests the user answers (src/follows/requests.ts). */
  approveFollowers?: boolean | undefined;
}

/**
 * What every user manages for themselves: details, avatar, federation switch, follower
 * approval, password. Turning follower approval off accepts every request still waiting, as
 * Mastodon does when an account is unlocked.
 */
export function createProfileService(deps: {
  users: UserRepository;
  sessions: SessionService;
  media: MediaStore;
  throttle: LoginThrottle;
  followRequests?: { acceptAll(userId: number): Promise<number> };
  /** A change remote servers show goes to them (profile-activity.ts), in the write's transaction. */
  profileActivity: Pick<ProfileActivity, 'record'>;
  transaction: Transaction;
}) {
  const { users, sessions, media, throttle, transaction } = deps;

  return {
    async update(
      user: UserRow,
      changes: ProfileChanges,
      avatar: { replace?: Uint8Array | undefined; remove?: boolean } = {},
    ): Promise<UserRow> {
      const avatarPath = avatar.replace ? await media.save(avatar.replace, AVATAR) : undefined;
      const avatarChange =
        avatarPath !== undefined ? { avatarPath } : avatar.remove ? { avatarPath: null } : {};
      // The row as it was and as it is now, read and written in one transaction.
      let change: { current: UserRow; updated: UserRow } | undefined;
      try {
        change = await transaction(async () => {
          const current = await users.findById(user.id);
          if (!current) return undefined;
          const row = await users.update(user.id, {
            ...(changes.fullName !== undefined && { fullName: changes.fullName }),
            ...(changes.email !== undefined && { email: changes.email }),
            ...(changes.bio !== undefined && { bio: changes.bio }),
            ...(changes.activityPubEnabled !== undefined && {
              activityPubEnabled: changes.activityPubEnabled,
            }),
            ...(changes.defaultVisibility !== undefined && {
              defaultVisibility: changes.defaultVisibility,
            }),
            ...(changes.approveFollowers !== undefined && {
              approveFollowers: changes.approveFollowers,
            }),
            ...avatarChange,
          });
          if (!row) return undefined;
          if (current.approveFollowers && !row.approveFollowers) {
            await deps.followRequests?.acceptAll(user.id);
          }
          await deps.profileActivity.record(current, row);
          return { current, updated: row };
        });
      } finally {
        if (!change) await media.remove(avatarPath);
      }
      if (!change) throw notFound('User not found');
      const { current, updated } = change;
      // The old file goes only once the row no longer names it.
      if ('avatarPath' in avatarChange && current.avatarPath !== updated.avatarPath) {
        await media.remove(current.avatarPath);
      }
      return updated;
    },

    /**
     * Changes the password after checking the current one (throttled like sign-in), and ends
     * every other session of the user. A common new password is refused before anything else.
     */
    async changePassword(
      user: UserRow,
      currentPassword: string,
      newPassword: string,
      keepSessionIdHash: string | undefined,
      clientAddress: string,
    ): Promise<UserRow> {
      refuseCommonPassword(newPassword);
      // Taken before the slow hash: parallel guesses cannot all pass the check first.
      const attempt = throttle.reserve(user.username, clientAddress);
      // A wrong password keeps the reserved attempt: it is the recorded failure.
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        throw badRequest('Current password is incorrect');
      }
      attempt.release();
      const passwordHash = await hashPassword(newPassword);
      // The new password and the end of the other sessions, together.
      return transaction(async () => {
        const updated = await users.update(user.id, { passwordHash });
        if (!updated) throw notFound('User not found');
        await sessions.endAllForUser(user.id, keepSessionIdHash);
        return updated;
      });
    },

    /** Another user's public profile. */
    async byUsername(username: string): Promise<UserRow> {
      const user = await users.findByUsername(username.toLowerCase());
      if (!user) throw notFound('Profile not found.');
      return user;
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
