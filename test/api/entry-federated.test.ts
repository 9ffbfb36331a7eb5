import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beveragePageSchema,
  beverageResponseSchema,
  type Beverage,
} from '../../contract/beverages.ts';
import { activityPageSchema } from '../../contract/social.ts';
import { signedInPeople, type SignedInPerson } from '../helpers/signed-in-people.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// `federated` (whether an entry goes to the fediverse) is its owner's setting: the owner's
// answers carry it, nobody else's do (a follower, another member, an admin, a recipient of a
// share), whichever door the entry comes through.

let vault: TestVault;

type Who = 'owner' | 'follower' | 'member' | 'admin' | 'recipient';
let people: Record<Who, SignedInPerson>;
const OTHERS: Who[] = ['follower', 'member', 'admin', 'recipient'];
let open: Beverage;
let kept: Beverage;

const create = (fields: Record<string, string>) => vault.logEntry(people.owner.cookie, fields);

/** The raw JSON objects of an answer (to see which keys are there, not what zod makes of it). */
async function rawJson(path: string, who: Who): Promise<unknown> {
  const res = await vault.request(path, { cookie: people[who].cookie });
  expect(res.status).toBe(200);
  return res.json();
}

async function one(id: number, who: Who): Promise<Record<string, unknown>> {
  const body = (await rawJson(`/api/beverages/${id}`, who)) as {
    beverage: Record<string, unknown>;
  };
  beverageResponseSchema.parse(body);
  return body.beverage;
}

async function listed(who: Who, query = ''): Promise<Record<string, unknown>[]> {
  const body = (await rawJson(`/api/beverages?userId=${people.owner.id}${query}`, who)) as {
    beverages: Record<string, unknown>[];
  };
  beveragePageSchema.parse(body);
  return body.beverages;
}

beforeAll(async () => {
  vault = createTestVault();
  people = await signedInPeople(vault, 'f', {
    owner: 'USER',
    follower: 'USER',
    member: 'USER',
    admin: 'ADMIN',
    recipient: 'USER',
  });
  const follow = await vault.postJson(
    `/api/users/${people.owner.id}/follow`,
    {},
    people.follower.cookie,
  );
  expect(follow.status).toBe(201);
  open = await create({ name: 'Open Ardbeg', type: 'WHISKEY', visibility: 'MEMBERS' });
  kept = await create({
    name: 'Kept Ardbeg',
    type: 'WHISKEY',
    visibility: 'MEMBERS',
    federated: 'false',
  });
  for (const entry of [open, kept]) {
    const share = await vault.postJson(
      `/api/beverages/${entry.id}/share`,
      { userId: people.recipient.id },
      people.owner.cookie,
    );
    expect(share.status).toBe(200);
  }
});
afterAll(() => vault.close());

describe('whether an entry goes to the fediverse', () => {
  it('is in the owner’s answers: the entry, the list and a search', async () => {
    expect(open.federated).toBe(true);
    expect(kept.federated).toBe(false);
    expect(await one(open.id, 'owner')).toMatchObject({ federated: true });
    expect(await one(kept.id, 'owner')).toMatchObject({ federated: false });
    const list = await listed('owner');
    expect(list.map((b) => [b.name, b.federated])).toEqual([
      ['Kept Ardbeg', false],
      ['Open Ardbeg', true],
    ]);
    expect((await listed('owner', '&q=ardbeg')).every((b) => 'federated' in b)).toBe(true);
  });

  it('is left out for a follower, another member, an admin and a recipient of a share', async () => {
    for (const who of OTHERS) {
      for (const entry of [open, kept]) {
        expect(await one(entry.id, who), who).not.toHaveProperty('federated');
      }
      const list = await listed(who);
      expect(list, who).toHaveLength(2);
      for (const entry of list) expect(entry, who).not.toHaveProperty('federated');
      expect(JSON.stringify(list)).not.toContain('federated');
    }
  });

  it('is left out of another user’s activity feed, and of a shared entry the recipient accepted', async () => {
    await vault.ctx.outbox.idle();
    const feed = (await rawJson('/api/activity', 'follower')) as {
      activities: { beverage: Record<string, unknown> }[];
    };
    activityPageSchema.parse(feed);
    expect(feed.activities.map((a) => a.beverage.name)).toContain('Open Ardbeg');
    expect(JSON.stringify(feed)).not.toContain('federated');
    const inbox = (await rawJson('/api/notifications', 'recipient')) as {
      notifications: { id: number; type: string; beverage: { id: number } | null }[];
    };
    const invite = inbox.notifications.find(
      (n) => n.type === 'SHARE_INVITE' && n.beverage?.id === open.id,
    );
    expect(invite).toBeDefined();
    const answer = await vault.postJson(
      `/api/notifications/${invite!.id}/respond`,
      { action: 'ACCEPT', status: 'TO_TRY' },
      people.recipient.cookie,
    );
    expect(answer.status).toBe(200);
    const { beverage } = (await answer.json()) as { beverage: Record<string, unknown> };
    expect(beverage).toMatchObject({ id: open.id, sharedWithCurrentUser: true });
    expect(beverage).not.toHaveProperty('federated');
    const mine = (await rawJson('/api/beverages?status=TO_TRY', 'recipient')) as {
      beverages: Record<string, unknown>[];
    };
    expect(mine.beverages.map((b) => b.id)).toContain(open.id);
    expect(JSON.stringify(mine)).not.toContain('federated');
  });
});
