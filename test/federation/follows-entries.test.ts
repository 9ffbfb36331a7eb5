import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteActorData } from '../../src/actors/repository.ts';
import { createFeedRepository } from '../../src/feed/repository.ts';
import { createRemoteFollowService } from '../../src/follows/remote.ts';
import { createFollowRepository } from '../../src/follows/repository.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * When a follow of a remote actor ends (unfollow, its Reject) or the actor is gone, the
 * entries received from it are handed to the remote entries' service to forget (their photo
 * copies are files the foreign keys cannot remove); a gone actor's first, then its row.
 */

let vault: TestVault;
let aliceId: number;
/** What was handed over to forget, each once the actor's row was read (when it was handed). */
const forgotten: Promise<{ uri: string; always: boolean; actorKnown: boolean }>[] = [];
let service: ReturnType<typeof createRemoteFollowService>;

const actor = (name: string): RemoteActorData => ({
  uri: `https://vault.other/users/${name}`,
  inboxUrl: `https://vault.other/users/${name}/inbox`,
  sharedInboxUrl: 'https://vault.other/inbox',
  handle: `@${name}@vault.other`,
  displayName: name,
  summary: '',
  avatarUrl: null,
});

beforeAll(async () => {
  vault = createTestVault({ origin: 'https://vault.example' });
  await vault.ctx.outbox.stop(); // nothing leaves: this test is about what stays here
  aliceId = (await vault.createUser({ username: 'alice', activityPubEnabled: true })).id;
  service = createRemoteFollowService({
    repo: createFollowRepository(vault.ctx.database.database),
    actors: vault.ctx.actors,
    users: vault.ctx.users,
    feed: createFeedRepository(vault.ctx.database.database),
    outbox: vault.ctx.outbox,
    transaction: vault.ctx.database.transaction,
    origin: vault.origin,
    entries: {
      forgetActor: (uri, options) => {
        const actorKnown = vault.ctx.actors
          .findRemoteByUri(uri)
          .then((found) => found !== undefined);
        forgotten.push(
          actorKnown.then((known) => ({
            uri,
            always: options?.always ?? false,
            actorKnown: known,
          })),
        );
        return actorKnown.then(() => 0);
      },
    },
  });
});
afterAll(() => vault.close());

describe('entries of a remote actor when the follow ends', () => {
  it('are handed over to forget after an unfollow', async () => {
    const follow = await service.follow({ id: aliceId }, actor('bob'));
    forgotten.length = 0;
    await service.unfollow({ id: aliceId }, follow.actorId);
    expect(await Promise.all(forgotten)).toEqual([
      { uri: actor('bob').uri, always: false, actorKnown: true },
    ]);
  });

  it('are handed over to forget after the actor’s Reject', async () => {
    const follow = await service.follow({ id: aliceId }, actor('carol'));
    const row = (await vault.ctx.database.database
      .prepare('SELECT activity_uri FROM follows WHERE id = ?')
      .pluck<string>()
      .get(follow.followId))!;
    forgotten.length = 0;
    expect(await service.receiveReject(actor('carol').uri, row)).toBe(true);
    expect(await Promise.all(forgotten)).toEqual([
      { uri: actor('carol').uri, always: false, actorKnown: true },
    ]);
  });

  it('are all forgotten before a gone actor’s row is deleted', async () => {
    await service.follow({ id: aliceId }, actor('dave'));
    forgotten.length = 0;
    expect(await service.actorGone(actor('dave').uri)).toBe(true);
    expect(await Promise.all(forgotten)).toEqual([
      { uri: actor('dave').uri, always: true, actorKnown: true },
    ]);
    expect(await vault.ctx.actors.findRemoteByUri(actor('dave').uri)).toBeUndefined();
    expect(await service.actorGone(actor('dave').uri)).toBe(false);
    expect(forgotten).toHaveLength(1);
  });
});
