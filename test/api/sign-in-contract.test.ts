import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  loginAnswerSchema,
  reauthenticateAnswerSchema,
  requiresTotpSchema,
  requiresWebAuthnSchema,
  sessionGrantSchema,
  signedInSchema,
} from '../../contract/auth.ts';
import { credentialsChangeSchema, userAnswerSchema } from '../../contract/second-factor.ts';
import { registrationOptionsSchema } from '../../contract/webauthn.ts';
import { contractRouter } from '../../src/http/contract-route.ts';
import { json } from '../helpers/json.ts';
import {
  cookieFrom,
  enableTotp,
  signInReauthenticated,
  totpCode,
} from '../helpers/second-factor.ts';
import { createSoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The sign-in and second-factor routes answer in the shapes of contract/ that the client's types
 * come from: each answer is parsed strictly (an unknown field fails too).
 */
let vault: TestVault;
let clock = Date.now();

beforeAll(() => {
  vault = createTestVault({ now: () => clock });
});
afterAll(() => vault.close());

const strictly = <S extends z.ZodObject>(schema: S, value: unknown): z.output<S> =>
  schema.strict().parse(value) as z.output<S>;

async function ok(res: Response): Promise<unknown> {
  expect(res.status).toBe(200);
  return json(res);
}

describe('the sign-in contract', () => {
  it('answers each of the three login shapes, and a session grant at the second step', async () => {
    const plain = await vault.createUser({ username: 'plain' });
    const signedIn = await ok(await vault.postJson('/api/auth/login', plain));
    strictly(signedInSchema, signedIn);
    expect(loginAnswerSchema.parse(signedIn)).toEqual(signedIn);

    const coded = await vault.createUser({ username: 'coded' });
    const { secret } = await enableTotp(vault, coded, clock);
    clock += 60_000;
    const totpStep = await vault.postJson('/api/auth/login', coded);
    strictly(requiresTotpSchema, await ok(totpStep));
    const pending = cookieFrom(totpStep, 'vault_pending');
    const grant = await vault.postJson(
      '/api/auth/login/totp',
      { token: totpCode(secret, clock) },
      pending,
    );
    strictly(sessionGrantSchema, await ok(grant));

    const keyed = await vault.createUser({ username: 'keyed' });
    const cookie = await signInReauthenticated(vault, keyed);
    const authenticator = createSoftAuthenticator(vault.origin);
    const options = strictly(
      registrationOptionsSchema,
      await ok(await vault.postJson('/api/webauthn/registration/options', {}, cookie)),
    );
    const registered = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...authenticator.register(options), nickname: 'Blue key' },
      cookie,
    );
    strictly(credentialsChangeSchema, await ok(registered));
    const keyStep = await vault.postJson('/api/auth/login', keyed);
    const challenge = strictly(requiresWebAuthnSchema, await ok(keyStep));
    const assertion = authenticator.authenticate(challenge.options);
    const keyGrant = await vault.postJson(
      '/api/webauthn/authentication/verify',
      assertion,
      cookieFrom(keyStep, 'vault_pending'),
    );
    strictly(sessionGrantSchema, await ok(keyGrant));
  });

  it('answers re-authentication and a second-factor change in their shapes', async () => {
    const user = await vault.createUser({ username: 'changer' });
    const cookie = await vault.login(user.username, user.password);
    const again = await vault.postJson(
      '/api/auth/reauthenticate',
      { password: user.password },
      cookie,
    );
    strictly(reauthenticateAnswerSchema, await ok(again));
    const setup = (await ok(await vault.postJson('/api/totp/setup', {}, cookie))) as {
      secret: string;
    };
    const verified = await vault.postJson(
      '/api/totp/verify',
      { token: totpCode(setup.secret, clock) },
      cookie,
    );
    strictly(userAnswerSchema, await ok(verified));
  });

  it('lets a handler answer only the shape its route declares (a type error otherwise)', () => {
    const { router, on } = contractRouter('/auth/sessions');
    // @ts-expect-error: GET /auth/sessions answers { sessions }, not a bare list
    on('GET /auth/sessions', () => []);
    // @ts-expect-error: a handler is registered under the prefix of its router only
    expect(() => on('GET /webauthn/credentials', () => ({ credentials: [] }))).toThrow(
      'GET /webauthn/credentials is not under /auth/sessions',
    );
    expect(router.routes.map((r) => `${r.method} ${r.path}`)).toContain('GET /');
  });
});
