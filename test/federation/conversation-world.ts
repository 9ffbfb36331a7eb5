import { expect } from 'vitest';
import type { Role } from '../../src/db/schema/index.ts';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * A vault and two fake fediverse servers for the inbound conversation tests: `masto` (its
 * accounts send Mastodon-shaped activities) and `gts` (GoToSocial-shaped), and the vault's
 * users signed in. `followers` of alice are made accepted remote followers of hers.
 */
export interface ConversationWorld {
  vault: TestServer;
  masto: FakeRemote;
  gts: FakeRemote;
  users: Record<string, { id: number; role: Role; cookie: string }>;
}

export async function startConversationWorld(setup: {
  /** Local users and whether they federate (activityPubEnabled). */
  users: Record<string, boolean>;
  masto: string[];
  gts: string[];
  /** Accounts (on either server) that follow alice. */
  followers: string[];
}): Promise<ConversationWorld> {
  const vault = await startTestServer({ allowPrivateAddress: true });
  const [masto, gts] = await Promise.all([startFakeRemote(), startFakeRemote()]);
  for (const name of setup.masto) masto.addAccount(name);
  for (const name of setup.gts) gts.addAccount(name);
  const users: ConversationWorld['users'] = {};
  for (const [username, activityPubEnabled] of Object.entries(setup.users)) {
    const password = `${username}-password`;
    const row = await vault.createUser({ username, password, activityPubEnabled });
    users[username] = { id: row.id, role: 'USER', cookie: await signIn(vault, username, password) };
  }
  const alice = await vault.ctx.actors.localActorId(users.alice!.id);
  for (const name of setup.followers) {
    const remote = setup.masto.includes(name) ? masto : gts;
    await insertRemoteFollower(vault.ctx.database.database, alice, remote, name);
  }
  return { vault, masto, gts, users };
}

async function signIn(vault: TestServer, username: string, password: string): Promise<string> {
  const res = await fetch(`${vault.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: vault.url },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((c) => c.includes('vault_session='))!
    .split(';')[0]!;
}

/**
 * Posts an activity signed by a fake account (to the shared inbox unless told), expects 202,
 * and waits until the inbox's queue and the outbox have handled it.
 */
export async function deliver(
  world: ConversationWorld,
  remote: FakeRemote,
  from: string,
  activity: Json,
  inbox = `${world.vault.url}/inbox`,
): Promise<void> {
  const res = await remote.post(from, inbox, activity);
  expect(res.status, res.body).toBe(202);
  await expect
    .poll(
      async () => {
        const federation = world.vault.ctx.federation.current()!;
        const depth = await federation.queue.getDepth();
        return depth.queued + federation.queue.inFlight;
      },
      { timeout: 15_000, interval: 20 },
    )
    .toBe(0);
  await world.vault.ctx.outbox.idle();
}

/** GET of an API path as a user; the JSON answer. */
export async function api(world: ConversationWorld, username: string, path: string) {
  const res = await fetch(`${world.vault.url}${path}`, {
    headers: { cookie: world.users[username]!.cookie },
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

export async function closeConversationWorld(world: ConversationWorld | undefined) {
  await Promise.all([world?.vault.close(), world?.masto.close(), world?.gts.close()]);
}
