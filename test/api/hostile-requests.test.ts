import { reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedLine, MAX_LOG_LINE } from '../../src/logger.ts';
import { chunked } from '../helpers/bodies.ts';
import { captureLogs } from '../helpers/logs.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

const AP = 'application/activity+json';
/** Looks like an HTTP signature: enough to get past the "unsigned" check to the next one. */
const SIGNATURE =
  'keyId="https://remote.example/actor#main-key",headers="(request-target) host date",signature="AAAA"';

let vault: TestVault;
const logged: LogRecord[] = [];

beforeAll(async () => {
  // The production configuration at its most talkative level, debug.
  await captureLogs('debug', logged);
  vault = createTestVault();
  await vault.createUser({ username: 'alice', activityPubEnabled: true });
});
afterAll(async () => {
  await vault.close();
  await reset();
});

function inbox(path: string, body: string, headers: Record<string, string> = {}) {
  return vault.request(path, {
    method: 'POST',
    headers: { 'content-type': AP, ...headers },
    body,
  });
}

describe('transport security', () => {
  it('sends HSTS for a year with subdomains when the origin is https, and not on plain http', async () => {
    const secure = createTestVault({ origin: 'https://vault.example' });
    try {
      for (const path of ['/api/auth/me', '/', '/media/missing.jpg']) {
        const res = await secure.request(path);
        expect(res.headers.get('strict-transport-security')).toBe(
          'max-age=31536000; includeSubDomains',
        );
      }
    } finally {
      await secure.close();
    }
    const plain = await vault.request('/api/auth/me');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a state-changing request whose Origin matches the Host header but not VAULT_ORIGIN', async () => {
    const res = await vault.app.request('http://evil.example/api/auth/login', {
      method: 'POST',
      headers: {
        host: 'evil.example',
        origin: 'http://evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ username: 'alice', password: 'alice-password' }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Cross-site request refused' });
  });
});

describe('request bodies', () => {
  it('refuses a chunked body over 1 MB to an inbox and to a JSON route with 413 and a message', async () => {
    for (const path of ['/inbox', '/users/alice/inbox', '/api/auth/login']) {
      const res = await vault.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', signature: SIGNATURE },
        body: chunked(2 * 1024 * 1024),
        duplex: 'half',
      } as RequestInit);
      expect(res.status, path).toBe(413);
      expect(((await res.json()) as { message: string }).message).toBe(
        'The request body is too large: at most 1 MB',
      );
    }
  });

  it('refuses an unsigned delivery with 401 before reading it', async () => {
    for (const path of ['/inbox', '/users/alice/inbox']) {
      const res = await inbox(path, '['.repeat(100_000) + ']'.repeat(100_000));
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe(
        'This inbox accepts only activities signed with an HTTP signature.',
      );
    }
  });

  it('answers deeply nested JSON with 400, to the inboxes and to the API alike', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const delivery = await inbox('/inbox', deep, { signature: SIGNATURE });
    expect(delivery.status).toBe(400);
    expect(((await delivery.json()) as { message: string }).message).toBe(
      'The activity nests deeper than 64 levels.',
    );
    const api = await vault.postJson('/api/auth/login', JSON.parse('[[[[1]]]]'));
    expect(api.status).toBe(400);
    const deepApi = await vault.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: deep,
    });
    expect(deepApi.status).toBe(400);
    expect(((await deepApi.json()) as { message: string }).message).toBe(
      'The request body nests too deeply',
    );
  });

  it('answers a delivery that is not JSON, or whose @context cannot be fetched, with a 4xx message', async () => {
    const notJson = await inbox('/inbox', '{"type": "Create",', { signature: SIGNATURE });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toBe(
      'The activity is not valid JSON.',
    );

    const unfetchable = await inbox(
      '/users/alice/inbox',
      JSON.stringify({
        '@context': ['https://unreachable.invalid/context.jsonld'],
        id: 'https://remote.example/activities/1',
        type: 'Create',
        actor: 'https://remote.example/actor',
        object: { type: 'Note', content: 'hi' },
        signature: { type: 'RsaSignature2017', creator: 'x', signatureValue: 'AAAA' },
      }),
      { signature: SIGNATURE, date: new Date().toUTCString() },
    );
    expect(unfetchable.status).toBeGreaterThanOrEqual(400);
    expect(unfetchable.status).toBeLessThan(500);
    expect(typeof ((await unfetchable.json()) as { message: string }).message).toBe('string');
  });
});

describe('the log', () => {
  async function hostileRound(): Promise<void> {
    const long = 'x'.repeat(8000);
    const requests: Promise<Response>[] = [];
    for (let i = 0; i < 16; i++) {
      requests.push(Promise.resolve(vault.request(`/media/${long}${i}.jpg`)));
      requests.push(
        Promise.resolve(vault.request(`/users/${long}${i}/outbox`, { headers: { accept: AP } })),
      );
      requests.push(
        Promise.resolve(vault.request(`/.well-known/webfinger?resource=acct:${long}@x`)),
      );
      requests.push(Promise.resolve(inbox('/inbox', `{"${long}": ${i}`, { signature: SIGNATURE })));
    }
    for (const res of await Promise.all(requests)) expect(res.status).toBeLessThan(500);
  }

  it('records nothing at the default level for 64 hostile requests: long paths, bad bodies, unsigned deliveries', async () => {
    await captureLogs('info', logged);
    await hostileRound();
    expect(logged.map(boundedLine)).toEqual([]);
  });

  it('keeps every line short at debug level, so a long path cannot make a long log', async () => {
    await captureLogs('debug', logged);
    await hostileRound();
    const lines = logged.map(boundedLine);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_LOG_LINE);
    expect(lines.join('\n').length).toBeLessThan(64 * 2 * MAX_LOG_LINE);
  });
});
