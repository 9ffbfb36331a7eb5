import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { securityKeySchema, sessionInfoSchema, totpSetupSchema } from '../../contract/auth.ts';
import { beveragePageSchema, beverageResponseSchema } from '../../contract/beverages.ts';
import {
  cheerResponseSchema,
  commentAuthorSchema,
  commentListSchema,
  commentResponseSchema,
  commentSchema,
} from '../../contract/conversation.ts';
import { publicProfileSchema, userSchema } from '../../contract/users.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The server answers in the shapes of contract/, the one definition the client's types come
 * from: each answer is parsed strictly (an unknown field fails too), so neither side can drift.
 */
let vault: TestVault;
let alice: string;
let admin: string;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const root = await vault.createUser({ username: 'root', fullName: 'Root', role: 'ADMIN' });
  alice = await vault.login('alice', a.password);
  admin = await vault.login('root', root.password);
});
afterAll(() => vault.close());

const strict = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) => schema.strict();

async function body(path: string, cookie: string, init: RequestInit = {}) {
  const res = await vault.request(path, { ...init, cookie });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as unknown;
}

describe('the /api contract', () => {
  it('GET /api/auth/me and GET /api/users answer Users', async () => {
    const me = await body('/api/auth/me', alice);
    strict(z.object({ user: strict(userSchema) })).parse(me);
    const all = await body('/api/users', admin);
    strict(z.object({ users: z.array(strict(userSchema)) })).parse(all);
  });

  it('a public profile has no private field', async () => {
    const profile = await body('/api/users/profiles/alice', admin);
    strict(z.object({ user: strict(publicProfileSchema) })).parse(profile);
  });

  it('sessions, security keys and the authenticator setup have their contract shapes', async () => {
    strict(z.object({ sessions: z.array(strict(sessionInfoSchema)) })).parse(
      await body('/api/auth/sessions', alice),
    );
    strict(z.object({ credentials: z.array(strict(securityKeySchema)) })).parse(
      await body('/api/webauthn/credentials', alice),
    );
    const setup = await vault.postJson('/api/totp/setup', { password: 'alice-password' }, alice);
    expect(setup.status).toBe(200);
    strict(totpSetupSchema).parse(await setup.json());
  });

  it('entries, pages of entries and a clone are Beverages', async () => {
    const form = new FormData();
    form.set('name', 'Talisker 10');
    form.set('type', 'WHISKEY');
    const created = await body('/api/beverages', alice, { method: 'POST', body: form });
    const { beverage } = beverageResponseSchema.strict().parse(created);
    beveragePageSchema.strict().parse(await body('/api/beverages', alice));
    const cloned = await vault.postJson(`/api/beverages/${beverage.id}/clone`, {}, admin);
    expect(cloned.status).toBe(201);
    beverageResponseSchema.strict().parse(await cloned.json());
  });

  it('cheers and comments answer their contract shapes, and entries carry the counts', async () => {
    const entry = await vault.logEntry(alice, { name: 'Oban 14', type: 'WHISKEY' });
    const path = `/api/beverages/${entry.id}`;
    const cheered = await body(`${path}/cheer`, admin, { method: 'POST' });
    expect(strict(cheerResponseSchema).parse(cheered)).toEqual({
      cheerCount: 1,
      cheeredByMe: true,
      commentCount: 0,
    });
    strict(cheerResponseSchema).parse(await body(`${path}/cheer`, admin, { method: 'DELETE' }));
    const posted = await vault.postJson(`${path}/comments`, { content: 'Honeyed.' }, admin);
    expect(posted.status).toBe(201);
    const { comment } = strict(commentResponseSchema)
      .extend({ comment: strict(commentSchema).extend({ author: strict(commentAuthorSchema) }) })
      .parse(await posted.json());
    const list = await body(`${path}/comments`, alice);
    expect(strict(commentListSchema).parse(list).comments).toEqual([
      { ...comment, canDelete: true },
    ]);
    const one = beverageResponseSchema.strict().parse(await body(path, alice)).beverage;
    expect(one).toMatchObject({ cheerCount: 0, cheeredByMe: false, commentCount: 1 });
  });
});
