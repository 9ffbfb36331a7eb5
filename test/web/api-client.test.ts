import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request, setUnauthorizedListener } from '../../web/src/api/client.ts';
import { fetchCurrentUser, logout } from '../../web/src/api/shell-calls.ts';
import { login, parseLoginResponse } from '../../web/src/api/sign-in.ts';

interface Call {
  url: string;
  init: RequestInit;
}

/** Replaces the global fetch (the process edge) with one that answers `response`. */
function answer(response: () => Response): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return response();
  });
  return calls;
}

const json = (body: unknown, status = 200, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

const text = (body: string, status: number, statusText = '') =>
  new Response(body, { status, statusText });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedListener(null);
});

describe('the API module: how responses are read', () => {
  it('returns the parsed JSON of an ok response', async () => {
    answer(() => json({ user: { id: 1 } }));
    expect(await request('/auth/me')).toEqual({ user: { id: 1 } });
  });

  it('returns undefined for an empty ok response (204)', async () => {
    answer(() => new Response(null, { status: 204 }));
    expect(await request('/auth/logout', { method: 'POST' })).toBeUndefined();
  });

  it("throws 'Invalid response from server' for invalid JSON with an ok status", async () => {
    answer(() => text('<html>oops</html>', 200, 'OK'));
    const error = await failure(request('/auth/me'));
    expect(error.message).toBe('Invalid response from server');
  });

  it('throws the raw text for invalid JSON with a failing status', async () => {
    answer(() => text('Bad gateway, try later', 502, 'Bad Gateway'));
    const error = await failure(request('/auth/me'));
    expect(error.message).toBe('Bad gateway, try later');
    expect(error.status).toBe(502);
  });

  it('throws the message field of a failing JSON response and never its error code', async () => {
    answer(() => json({ code: 'E_THROTTLED', message: 'Too many attempts. Wait a minute.' }, 429));
    const error = await failure(request('/auth/login', { json: {} }));
    expect(error.message).toBe('Too many attempts. Wait a minute.');
    expect(error.message).not.toContain('E_THROTTLED');
    expect(error.status).toBe(429);
  });

  it('throws the text of a failing JSON response that has no message field', async () => {
    answer(() => json({ error: 'nope' }, 400));
    const error = await failure(request('/auth/me'));
    expect(error.message).toBe('{"error":"nope"}');
  });

  it('throws the status text of a failing response with an empty body', async () => {
    answer(() => text('', 503, 'Service Unavailable'));
    const error = await failure(request('/auth/me'));
    expect(error.message).toBe('Service Unavailable');
  });

  it('says the server could not be reached when fetch itself fails', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await failure(request('/auth/me'));
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/could not reach the server/i);
  });
});

describe('the API module: how requests are made', () => {
  it('prefixes /api, includes credentials and sends JSON bodies as application/json', async () => {
    const calls = answer(() => json({ user: { id: 1, username: 'ada' }, credentials: [] }));
    await login('ada', 'secret-pass');
    const [call] = calls;
    expect(call?.url).toBe('/api/auth/login');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.credentials).toBe('include');
    expect(new Headers(call?.init.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      username: 'ada',
      password: 'secret-pass',
    });
  });

  it('sends FormData bodies as they are, leaving the content type to the browser', async () => {
    const calls = answer(() => json({ user: {} }));
    const form = new FormData();
    form.set('fullName', 'Ada');
    await request('/users/me', { method: 'PATCH', form });
    expect(calls[0]?.init.body).toBe(form);
    expect(new Headers(calls[0]?.init.headers).has('Content-Type')).toBe(false);
  });

  it('leaves empty query values out of the URL', async () => {
    const calls = answer(() => json({ beverages: [] }));
    await request('/beverages', {
      query: { type: 'WINE', q: '', status: undefined, cellar: true },
    });
    expect(calls[0]?.url).toBe('/api/beverages?type=WINE&cellar=true');
    expect(calls[0]?.init.method).toBe('GET');
  });

  it('posts JSON to /auth/logout so the server accepts it as same-site JSON', async () => {
    const calls = answer(() => new Response(null, { status: 204 }));
    await logout();
    expect(calls[0]?.url).toBe('/api/auth/logout');
    expect(new Headers(calls[0]?.init.headers).get('Content-Type')).toBe('application/json');
  });

  it('reports a 401 from a signed-in call, but not from the sign-in calls', async () => {
    const listener = vi.fn();
    setUnauthorizedListener(listener);
    answer(() => json({ message: 'You need to sign in first.' }, 401));

    await failure(fetchCurrentUser());
    await failure(login('ada', 'wrong-password'));
    expect(listener).not.toHaveBeenCalled();

    await failure(request('/beverages'));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('the API module: login responses', () => {
  const user = { id: 1, username: 'ada', fullName: 'Ada', role: 'USER' };

  // The answer is the contract's LoginAnswer as the server sent it: its flags say which it is.
  it('reads a plain success as signed in, with its credentials', () => {
    const answer = { user, credentials: [] };
    expect(parseLoginResponse(answer)).toBe(answer);
  });

  it('reads requiresWebAuthn as a security-key step with its options', () => {
    const options = { challenge: 'abc', allowCredentials: [] };
    const answer = { requiresWebAuthn: true, options, credentials: [] };
    expect(parseLoginResponse(answer)).toBe(answer);
  });

  it('reads requiresTotp as an authenticator step', () => {
    const answer = { requiresTotp: true, user };
    expect(parseLoginResponse(answer)).toBe(answer);
  });

  it("throws 'Unexpected login response' for anything else", () => {
    for (const data of [undefined, null, [], 'ok', { ok: true }, { requiresWebAuthn: true }]) {
      expect(() => parseLoginResponse(data)).toThrow('Unexpected login response');
    }
  });

  it("gives 'Unexpected login response' when the server's success has another shape", async () => {
    answer(() => json({ welcome: true }));
    const error = await failure(login('ada', 'secret-pass'));
    expect(error.message).toBe('Unexpected login response');
  });
});
