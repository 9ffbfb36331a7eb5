import type { ActorRepository } from '../actors/repository.ts';
import type { BeverageStatus, ShareRow } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, forbidden, notFound } from '../domain-error.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { UserRepository } from '../users/repository.ts';
import type { EntryView } from '../beverages/repository.ts';
import type { BeverageService, Viewer } from '../beverages/service.ts';
import type { ShareRepository } from './repository.ts';

const SHARE_NOT_FOUND = 'Share not found';

/** A share between the owner or sharer and a user one of whom blocked the other. */
export const CANNOT_SHARE = 'You cannot share this entry with this user.';

/**
 * Sharing an entry with another user of the vault (docs/social.md, "Sharing"). The owner or an
 * admin shares; the share is PENDING and its Offer activity, recorded in the same transaction,
 * becomes the recipient's SHARE_INVITE when the outbox delivers it. The recipient accepts (the
 * entry joins the list they chose, read-only) or declines (the share goes); the owner or an
 * admin may remove a share at any time. Each method's checks and writes run in one
 * transaction, which joins the caller's when there is one (a savepoint), so the notifications
 * service can answer an invitation inside its own transaction.
 */
export function createShareService(deps: {
  repo: ShareRepository;
  beverages: BeverageService;
  users: UserRepository;
  actors: ActorRepository;
  outbox: Outbox;
  transaction: Transaction;
  /** Withdraws the still-pending invitations of a removed share, where notifications offer it. */
  withdrawInvites?: (shareId: number) => Promise<void>;
  /** Blocks (src/blocks/): no share between two users one of whom blocked the other. */
  blocks?: { isBlockedBetweenUsers(one: number, other: number): Promise<boolean> };
  now?: () => number;
}) {
  const { repo, beverages, users, actors, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;

  /** A share of the viewer's (as recipient); 404 for an unknown one or another user's. */
  async function ownShare(viewer: Viewer, shareId: number): Promise<ShareRow> {
    const share = await repo.findById(shareId);
    if (!share || share.recipientId !== viewer.id) throw notFound(SHARE_NOT_FOUND);
    return share;
  }

  return {
    /** Shares an entry with a local user; returns the entry with its updated `sharedWith`. */
    async share(
      viewer: Viewer,
      entryId: number,
      input: { userId: number; message?: string | undefined },
    ) {
      // The checks (a block, an existing share) and the share with its Offer: one transaction.
      const entry = await transaction(async () => {
        const entry = await beverages.get(entryId);
        if (!beverages.canModify(viewer, entry)) {
          throw forbidden('Only the owner or an admin can share this entry');
        }
        const recipient = await users.findById(input.userId);
        if (!recipient) throw notFound('User not found');
        if (recipient.id === entry.userId) {
          throw badRequest(
            recipient.id === viewer.id
              ? 'You cannot share an entry with yourself'
              : 'An entry cannot be shared with its owner',
          );
        }
        const blocked = async (userId: number) =>
          (await deps.blocks?.isBlockedBetweenUsers(userId, recipient.id)) ?? false;
        if ((await blocked(entry.userId)) || (await blocked(viewer.id))) {
          throw forbidden(CANNOT_SHARE);
        }
        const message = input.message?.trim() || null;
        if (await repo.find(entry.id, recipient.id)) {
          throw conflict(`This entry is already shared with ${recipient.fullName}`);
        }
        const t = now();
        const share = await repo.insert({
          beverageId: entry.id,
          recipientId: recipient.id,
          sharedById: viewer.id,
          message,
          createdAt: t,
        });
        await outbox.record({
          actorId: await actors.localActorId(viewer.id),
          type: 'Offer',
          beverageId: entry.id,
          shareId: share.id,
          objectActorId: await actors.localActorId(recipient.id),
          payload: message === null ? {} : { message },
          createdAt: t,
        });
        return entry;
      });
      return beverages.viewOf(viewer, await beverages.get(entry.id));
    },

    /**
     * Removes a share (pending or accepted): the entry leaves the recipient's vault and an
     * unanswered invitation can no longer be accepted.
     */
    async unshare(viewer: Viewer, entryId: number, shareId: number): Promise<void> {
      const entry = await beverages.get(entryId);
      if (!beverages.canModify(viewer, entry)) {
        throw forbidden('Only the owner or an admin can remove a share of this entry');
      }
      const share = await repo.findById(shareId);
      if (!share || share.beverageId !== entry.id) throw notFound(SHARE_NOT_FOUND);
      await transaction(async () => {
        await deps.withdrawInvites?.(share.id);
        if (!(await repo.delete(share.id))) throw notFound(SHARE_NOT_FOUND);
      });
    },

    /**
     * The recipient adds a shared entry to their vault, in the list they chose (at its top).
     * Returns the entry as the recipient now has it.
     */
    async accept(viewer: Viewer, shareId: number, listStatus: BeverageStatus): Promise<EntryView> {
      // The checks (still pending, no block between the two) and the acceptance: one transaction.
      const share = await transaction(async () => {
        const share = await ownShare(viewer, shareId);
        if (share.state !== 'PENDING') throw conflict('This entry is already in your vault');
        // An invitation sent before a block between the two can no longer be taken up.
        const owner = (await beverages.get(share.beverageId)).userId;
        if (await deps.blocks?.isBlockedBetweenUsers(viewer.id, owner)) {
          throw conflict('This invitation was withdrawn.');
        }
        if (!(await repo.accept(share.id, listStatus, now()))) {
          throw conflict('This entry is already in your vault');
        }
        return share;
      });
      return beverages.viewOf(viewer, await beverages.get(share.beverageId));
    },

    /** The recipient declines a pending share: it is deleted. */
    async decline(viewer: Viewer, shareId: number): Promise<void> {
      // Still pending when it is deleted: the check and the deletion, one transaction.
      await transaction(async () => {
        const share = await ownShare(viewer, shareId);
        if (share.state !== 'PENDING') throw conflict('This entry is already in your vault');
        await repo.delete(share.id);
      });
    },

    /** A share by id (undefined when gone): for the notifications service. */
    find(shareId: number): Promise<ShareRow | undefined> {
      return repo.findById(shareId);
    },
  };
}

export type ShareService = ReturnType<typeof createShareService>;
