import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiRoutes, type AnswerOf, type RouteKey } from '../../contract/routes/index.ts';
import { cellarRoutes } from '../../contract/routes/cellar.ts';
import { entryRoutes } from '../../contract/routes/entries.ts';
import { isContractHandler } from '../../src/http/contract-route.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The entry routes (entries, shares, the activity feed, notifications) are served from the
 * route table: each one the app answers under those paths is a key of contract/routes/entries.ts
 * registered through the contract router, and each answers the table's answer schema.
 */
let vault: TestVault;
let alice: string;
let bob: string;
let bobId: number;

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  bobId = b.id;
  alice = await vault.login('alice', 'alice-password');
  bob = await vault.login('bob', 'bob-password');
});
afterAll(() => vault.close());

const AREA = /^\/api\/(beverages|activity|notifications)(\/|$)/;

/** `GET /beverages/{id}` of the app's `GET /api/beverages/:id`. */
const keyOf = (method: string, path: string) =>
  `${method} ${path.slice('/api'.length).replace(/:(\w+)/g, '{$1}')}`;

/** Parses an answer strictly (an unknown top-level field fails) with the table's schema. */
async function answerOf<K extends RouteKey>(key: K, res: Response, status = 200) {
  expect(res.status, `${key}: ${await res.clone().text()}`).toBe(status);
  const schema = (apiRoutes[key] as { answer: z.ZodObject }).answer;
  return schema.strict().parse(await res.json()) as AnswerOf<K>;
}

describe('the entry routes', () => {
  it('are each a key of the table, served by the contract router', () => {
    const served = vault.app.routes.filter((r) => AREA.test(r.path) && !r.path.endsWith('*'));
    const keys = new Set(served.map((r) => keyOf(r.method, r.path)));
    // An entry's bottles and tastings are the cellar's table (contract/routes/cellar.ts).
    const entries = [...keys].filter((key) => !(key in cellarRoutes));
    expect(entries.sort()).toEqual(Object.keys(entryRoutes).sort());
    for (const route of served) {
      expect(isContractHandler(route.handler), keyOf(route.method, route.path)).toBe(true);
    }
  });

  it('answer in the shapes the table declares', async () => {
    const entry = await vault.logEntry(alice, { name: 'Cask 55', type: 'WHISKEY' });
    const one = await vault.request(`/api/beverages/${entry.id}`, { cookie: alice });
    expect((await answerOf('GET /beverages/{id}', one)).beverage.id).toBe(entry.id);

    const form = new FormData();
    form.set('rating', '4');
    const patch = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'PATCH',
      body: form,
      cookie: alice,
    });
    expect((await answerOf('PATCH /beverages/{id}', patch)).beverage.rating).toBe(4);

    const share = await vault.postJson(
      `/api/beverages/${entry.id}/share`,
      { userId: bobId },
      alice,
    );
    const shared = (await answerOf('POST /beverages/{id}/share', share)).beverage;
    expect(shared.sharedWith.map((user) => user.username)).toEqual(['bob']);

    await vault.ctx.outbox.idle(); // the invitation is delivered by the outbox
    const list = await vault.request('/api/notifications', { cookie: bob });
    const { notifications } = await answerOf('GET /notifications', list);
    expect(notifications.map((n) => n.type)).toEqual(['SHARE_INVITE']);

    const respond = await vault.postJson(
      `/api/notifications/${notifications[0]!.id}/respond`,
      { action: 'ACCEPT', status: 'TO_TRY' },
      bob,
    );
    const answered = await answerOf('POST /notifications/{id}/respond', respond);
    expect([answered.notification.status, answered.beverage?.status]).toEqual([
      'ACCEPTED',
      'TO_TRY',
    ]);

    const change = { visibility: 'FOLLOWERS', ids: [entry.id] };
    const visibility = await vault.postJson('/api/beverages/visibility', change, alice, 'PATCH');
    expect(await answerOf('PATCH /beverages/visibility', visibility)).toEqual({ updated: 1 });

    const feed = await vault.request('/api/activity?limit=5', { cookie: bob });
    expect(await answerOf('GET /activity', feed)).toEqual({ activities: [], nextCursor: null });
  });
});
