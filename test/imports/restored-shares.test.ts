import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShareRestorer } from '../../src/imports/restored-shares.ts';
import { createShareRepository } from '../../src/shares/repository.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The shares a vault export names, found again among this vault's users by username.

let vault: TestVault;
let owner: number;
let friend: number;

beforeAll(async () => {
  vault = createTestVault();
  owner = (await vault.createUser({ username: 'owner' })).id;
  friend = (await vault.createUser({ username: 'friend' })).id;
});
afterAll(() => vault.close());

const restorer = () =>
  createShareRestorer({
    users: vault.ctx.users,
    shares: createShareRepository(vault.ctx.database.database),
  });

describe('Restoring the shares of an imported entry', () => {
  it('finds users by username, once each, and names those it cannot share with', async () => {
    const { recipients, remark } = await restorer().resolve(owner, [
      'friend',
      'ghost',
      'owner',
      'friend',
      'nobody',
    ]);
    expect(recipients).toEqual([friend]);
    expect(remark).toBe(
      'Not shared again with ghost, nobody: no user of this vault has those usernames. Not shared with you: you own it now',
    );
    expect(await restorer().resolve(owner, [])).toEqual({ recipients: [], remark: null });
  });

  it('writes pending shares alone, once each, passing over a user who is gone', async () => {
    const cookie = await vault.login('owner', 'owner-password');
    const form = new FormData();
    for (const [k, v] of Object.entries({ type: 'BEER', name: 'Restored', subtype: 'IPA' })) {
      form.append(k, v);
    }
    const created = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
    expect(created.status).toBe(201);
    const entryId = ((await created.json()) as { beverage: { id: number } }).beverage.id;
    const db = vault.ctx.database.database;
    const activities = () => db.prepare('select count(*) as n from activities').get();
    const before = await activities();
    const r = restorer();
    await vault.ctx.database.transaction(async () => {
      await r.restore(entryId, owner, [friend, 999_999], 1_700_000_000_000);
      await r.restore(entryId, owner, [friend], 1_700_000_000_000);
    });
    expect(
      await db
        .prepare(
          'select recipient_id, shared_by_id, state, message from shares where beverage_id = ?',
        )
        .all(entryId),
    ).toEqual([{ recipient_id: friend, shared_by_id: owner, state: 'PENDING', message: null }]);
    expect(await activities()).toEqual(before);
  });
});
