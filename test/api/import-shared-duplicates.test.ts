import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { beverageSchema } from '../../contract/beverages.ts';
import { importJobResponseSchema, importReportSchema } from '../../contract/imports.ts';
import { notificationSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * An entry someone shared with a user, added to their lists, is in their vault as far as an
 * import is concerned: their own export holding the same entry (the export leaves shared
 * entries out, but the user may have logged it themselves before) brings no second card.
 */
let vault: TestVault;
let alice: string;
let bob: string;
let bobId: number;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  bobId = b.id;
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
});
afterAll(() => vault.close());

const POMEROL = { type: 'WINE', name: 'Pomerol 2015', subtype: 'Merlot', makerName: 'Petrus' };

async function create(cookie: string): Promise<number> {
  const form = new FormData();
  for (const [k, v] of Object.entries(POMEROL)) form.append(k, v);
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  expect(res.status).toBe(201);
  return (await json(res)).beverage.id as number;
}

async function entriesOf(cookie: string) {
  const res = await vault.request('/api/beverages', { cookie });
  expect(res.status).toBe(200);
  return z.object({ beverages: z.array(beverageSchema) }).parse(await json(res)).beverages;
}

describe("Importing one's own export while holding an accepted share of the same entry", () => {
  it('counts the row as a duplicate of the shared entry and adds no second card', async () => {
    // Bob's export holds his own Pomerol; he deletes it later.
    const own = await create(bob);
    const exported = await vault.request('/api/export', { cookie: bob });
    expect(exported.status).toBe(200);
    const bytes = new Uint8Array(await exported.arrayBuffer());
    expect(
      (await vault.request(`/api/beverages/${own}`, { method: 'DELETE', cookie: bob })).status,
    ).toBe(204);

    // Alice shares hers, the same wine, and Bob adds it to his tried list.
    const hers = await create(alice);
    expect(
      (await vault.postJson(`/api/beverages/${hers}/share`, { userId: bobId }, alice)).status,
    ).toBe(200);
    await vault.ctx.outbox.idle();
    const listed = await vault.request('/api/notifications', { cookie: bob });
    const [invite] = z
      .object({ notifications: z.array(notificationSchema) })
      .parse(await json(listed)).notifications;
    const accepted = await vault.postJson(
      `/api/notifications/${invite!.id}/respond`,
      { action: 'ACCEPT', status: 'TRIED' },
      bob,
    );
    expect(accepted.status).toBe(200);
    expect((await entriesOf(bob)).map((e) => [e.id, e.isOwner])).toEqual([[hers, false]]);

    const upload = await vault.request('/api/imports?fileName=export.zip', {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: bob,
    });
    expect(upload.status).toBe(202);
    const { job } = importJobResponseSchema.parse(await json(upload));
    await vault.ctx.imports.idle();
    const report = importReportSchema.parse(
      await json(await vault.request(`/api/imports/${job.id}/report`, { cookie: bob })),
    );

    expect(report.job).toMatchObject({ status: 'DONE', imported: 0, duplicates: 1, refused: 0 });
    expect(report.rows).toEqual([
      {
        row: 1,
        name: 'Pomerol 2015',
        outcome: 'DUPLICATE',
        reason: 'Already in the vault: an entry with the same name, maker and subtype',
      },
    ]);
    expect((await entriesOf(bob)).map((e) => [e.id, e.isOwner])).toEqual([[hers, false]]);
  });
});
