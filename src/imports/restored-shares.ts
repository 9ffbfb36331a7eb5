import type { ShareRepository } from '../shares/repository.ts';
import type { UserRepository } from '../users/repository.ts';

/**
 * Whom an entry of a vault export was shared with, found again among the users of this vault
 * by username (as the export names them). A share is restored as the share row alone: PENDING,
 * with no Offer activity, so nobody is notified and nothing is sent anywhere (an import of
 * thousands of shared entries floods no one's notifications). The recipient sees the entry as a
 * recipient does (on the owner's profile, whatever its visibility), and the owner sees the
 * recipient in the entry's Sharing panel; to invite the recipient to add it to their own
 * lists, the owner removes the share and shares again. Usernames this vault lacks are named in
 * the row's report.
 */
export function createShareRestorer(deps: {
  users: Pick<UserRepository, 'findByUsername' | 'findById'>;
  shares: Pick<ShareRepository, 'insert' | 'find'>;
}) {
  /** Username → user id (null: no such user here), for the job under way. */
  const found = new Map<string, number | null>();

  async function idOf(username: string): Promise<number | null> {
    let id = found.get(username);
    if (id === undefined) {
      id = (await deps.users.findByUsername(username))?.id ?? null;
      found.set(username, id);
    }
    return id;
  }

  return {
    /**
     * The users of this vault to share an imported entry of `ownerId` with, and a remark on
     * the usernames left out (null when none was).
     */
    async resolve(ownerId: number, usernames: readonly string[]) {
      const recipients: number[] = [];
      const missing: string[] = [];
      let self = false;
      for (const username of new Set(usernames)) {
        const id = await idOf(username);
        if (id === null) missing.push(username);
        else if (id === ownerId) self = true;
        else recipients.push(id);
      }
      const remarks: string[] = [];
      if (missing.length) {
        remarks.push(
          `Not shared again with ${missing.join(', ')}: no user of this vault has ${
            missing.length === 1 ? 'that username' : 'those usernames'
          }`,
        );
      }
      if (self) remarks.push('Not shared with you: you own it now');
      return { recipients, remark: remarks.length ? remarks.join('. ') : null };
    },

    /**
     * Writes the shares of a just-inserted entry, inside the batch's transaction; a recipient
     * deleted since the username was found is passed over.
     */
    async restore(
      entryId: number,
      ownerId: number,
      recipients: readonly number[],
      at: number,
    ): Promise<void> {
      for (const recipientId of recipients) {
        if (!(await deps.users.findById(recipientId))) continue;
        if (await deps.shares.find(entryId, recipientId)) continue;
        await deps.shares.insert({
          beverageId: entryId,
          recipientId,
          sharedById: ownerId,
          message: null,
          createdAt: at,
        });
      }
    },

    /** Forgets the usernames found (a new job: users may have come or gone). */
    reset(): void {
      found.clear();
    },
  };
}

export type ShareRestorer = ReturnType<typeof createShareRestorer>;
