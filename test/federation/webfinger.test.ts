import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * WebFinger as Mastodon answers it: a resource without the `acct:` scheme is a handle too, and
 * the subject is the account's canonical handle whatever the case it was asked in.
 */

const JRD = 'application/jrd+json';
let vault: TestVault;

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'alice', activityPubEnabled: true });
});
afterAll(() => vault.close());

const host = () => new URL(vault.origin).host;

async function finger(resource: string) {
  const res = await vault.request(
    `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
    { headers: { accept: JRD } },
  );
  return { status: res.status, body: res.ok ? await json(res) : undefined };
}

describe('WebFinger', () => {
  it('answers every spelling of a handle with the canonical subject and the same links', async () => {
    const canonical = await finger(`acct:alice@${host()}`);
    expect(canonical.status).toBe(200);
    for (const resource of [
      `alice@${host()}`,
      `acct:ALICE@${host()}`,
      `ALICE@${host().toUpperCase()}`,
      `ACCT:Alice@${host()}`,
    ]) {
      const answer = await finger(resource);
      expect(answer.status, resource).toBe(200);
      expect(answer.body, resource).toEqual(canonical.body);
    }
    expect(canonical.body).toMatchObject({
      subject: `acct:alice@${host()}`,
      aliases: [`${vault.origin}/users/alice`],
    });
    expect(canonical.body.links).toContainEqual({
      rel: 'self',
      type: 'application/activity+json',
      href: `${vault.origin}/users/alice`,
    });
  });

  it('still answers 404 for an unknown account or another host without acct:, and 400 for no handle', async () => {
    expect((await finger(`nobody@${host()}`)).status).toBe(404);
    expect((await finger('alice@elsewhere.example')).status).toBe(404);
    expect((await finger('alice')).status).toBe(400);
  });
});
