import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchUserCredentials, deleteUserCredential } from '../../web/src/api/admin.ts';
import { call } from '../../web/src/api/call.ts';
import { login, loginWithTotp } from '../../web/src/api/sign-in.ts';
import { endSession } from '../../web/src/api/profile.ts';
import { deleteCredential, startTotpSetup } from '../../web/src/api/second-factor.ts';

interface Sent {
  url: string;
  method: string | undefined;
  body: unknown;
}

/** Replaces the global fetch (the process edge) with one that answers `body` with `status`. */
function answer(body: unknown, status = 200): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: init.method,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sign-in and second-factor calls, by the route table', () => {
  it('send each call to its route with its body', async () => {
    const sent = answer({ credentials: [], user: { id: 1 } });
    await deleteCredential(7, 'pw');
    await deleteUserCredential(8);
    await fetchUserCredentials(3);
    await endSession('ab/cd');
    await startTotpSetup();
    expect(sent).toEqual([
      { url: '/api/webauthn/credentials/7', method: 'DELETE', body: { password: 'pw' } },
      { url: '/api/webauthn/admin/credentials/8', method: 'DELETE', body: {} },
      { url: '/api/webauthn/admin/users/3/credentials', method: 'GET', body: undefined },
      { url: '/api/auth/sessions/ab%2Fcd', method: 'DELETE', body: undefined },
      { url: '/api/totp/setup', method: 'POST', body: {} },
    ]);
  });

  it('gives a second step that came back without a user as null (the sign-in expired)', async () => {
    answer({});
    expect(await loginWithTotp('123456', false)).toBeNull();
  });

  it('makes a path, body or answer the table does not have a type error', async () => {
    const sent = answer({ message: 'Refused' }, 400);
    const wrong = [
      // @ts-expect-error: the login body is username and password, not email
      () => call('POST /auth/login', { json: { email: 'ada@example.com', password: 'pw' } }),
      // @ts-expect-error: the code of the authenticator step is a string
      () => call('POST /auth/login/totp', { json: { token: 123456 } }),
      // @ts-expect-error: there is no such route
      () => call('POST /auth/signin', { json: {} }),
    ];
    for (const send of wrong) await expect(send()).rejects.toThrow('Refused');
    expect(sent).toHaveLength(3);
    // @ts-expect-error: ending a session needs its id
    await expect(call('DELETE /auth/sessions/{id}')).rejects.toThrow('no value for {id}');

    answer({ requiresTotp: true, user: { id: 1 } });
    const result = await login('ada', 'pw');
    // @ts-expect-error: the answer may be a second step, which has no key list
    expect(result.credentials).toBeUndefined();
    if (result.requiresTotp) {
      // @ts-expect-error: the authenticator step carries no WebAuthn options
      expect(result.options).toBeUndefined();
    }
  });
});
