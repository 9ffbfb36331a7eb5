import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdTokenSchema, MAX_TOKENS_PER_USER, tokenListSchema } from '../../contract/tokens.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * What one person's tokens may add up to: at most MAX_TOKENS_PER_USER tokens, and one budget
 * of requests a minute for all of them together.
 */
const START = Date.parse('2026-05-01T09:00:00Z');

describe('the number of tokens a person may have', () => {
  let vault: TestVault;
  let cookie: string;
  beforeAll(async () => {
    vault = createTestVault();
    const user = await vault.createUser({ username: 'collector' });
    cookie = await vault.login('collector', user.password);
  });
  afterAll(() => vault.close());

  const create = (name: string) => vault.postJson('/api/tokens', { name, scope: 'read' }, cookie);
  const count = async () => {
    const res = await vault.request('/api/tokens', { cookie });
    return tokenListSchema.parse(await json(res)).tokens.length;
  };

  it(`is at most ${MAX_TOKENS_PER_USER}: one more is refused with a message, and makes nothing`, async () => {
    const made: number[] = [];
    for (let i = 1; i <= MAX_TOKENS_PER_USER; i++) {
      const res = await create(`Script ${i}`);
      expect(res.status).toBe(201);
      made.push(createdTokenSchema.parse(await json(res)).token.id);
    }
    const refused = await create('One too many');
    expect(refused.status).toBe(409);
    expect(await json(refused)).toEqual({
      message: `You have ${MAX_TOKENS_PER_USER} access tokens, the most a person may have: revoke one you no longer use first`,
    });
    expect(await count()).toBe(MAX_TOKENS_PER_USER);
    // Revoking one makes room for one.
    const revoked = await vault.request(`/api/tokens/${made[0]}`, { method: 'DELETE', cookie });
    expect(revoked.status).toBe(204);
    expect((await create('In its place')).status).toBe(201);
    expect((await create('And another')).status).toBe(409);
    expect(await count()).toBe(MAX_TOKENS_PER_USER);
  });

  it("does not count another person's tokens", async () => {
    const other = await vault.createUser({ username: 'sparse' });
    const otherCookie = await vault.login('sparse', other.password);
    const res = await vault.postJson('/api/tokens', { name: 'First', scope: 'read' }, otherCookie);
    expect(res.status).toBe(201);
  });
});

describe('the rate limit of token requests', () => {
  let limited: TestVault;
  let now = START;
  beforeAll(() => {
    limited = createTestVault({
      now: () => now,
      env: { VAULT_TOKEN_REQUESTS_PER_MINUTE: '3' },
    });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After past the limit, per person across their tokens, and again after the minute', async () => {
    const user = await limited.createUser({ username: 'busy' });
    const owner = (await limited.ctx.users.findById(user.id))!;
    const neighbour = (await limited.ctx.users.findById(
      (await limited.createUser({ username: 'calm' })).id,
    ))!;
    const entry = (
      await limited.ctx.beverages.create(owner, { name: 'Laphroaig', type: 'WHISKEY' })
    ).id;
    const one = (await limited.ctx.tokens.create(owner, { name: 'One', scope: 'read' })).secret;
    const two = (await limited.ctx.tokens.create(owner, { name: 'Two', scope: 'write' })).secret;
    const theirs = (await limited.ctx.tokens.create(neighbour, { name: 'Theirs', scope: 'read' }))
      .secret;
    const get = (secret: string) =>
      limited.app.request(`${limited.origin}/api/beverages/${entry}/comments`, {
        headers: { authorization: `Bearer ${secret}` },
      });
    expect((await get(one)).status).toBe(200);
    expect((await get(two)).status).toBe(200);
    expect((await get(one)).status).toBe(200);
    now += 20_000;
    const message =
      'Your access tokens have made too many requests (at most 3 a minute, all your tokens together); try again in 40 s';
    for (const secret of [one, two]) {
      const refused = await get(secret);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('40');
      expect(await json(refused)).toEqual({ message });
    }
    // A new token is no new budget.
    const three = (await limited.ctx.tokens.create(owner, { name: 'Three', scope: 'read' })).secret;
    expect((await get(three)).status).toBe(429);
    // Another person's tokens have their own.
    expect((await get(theirs)).status).toBe(200);
    // A session is not counted against it.
    const cookie = await limited.login('busy', user.password);
    for (let i = 0; i < 5; i++) {
      expect((await limited.request(`/api/beverages/${entry}/comments`, { cookie })).status).toBe(
        200,
      );
    }
    now += 40_000;
    expect((await get(two)).status).toBe(200);
  });
});
