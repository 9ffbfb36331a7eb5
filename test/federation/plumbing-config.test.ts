import { reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { captureLogs } from '../helpers/logs.ts';
import { createTestVault } from '../helpers/vault.ts';
import { startFakeRemote, type FakeRemote } from './plumbing-remote.ts';

const logs: LogRecord[] = [];
let remote: FakeRemote;

beforeAll(async () => {
  await captureLogs('info', logs);
  remote = await startFakeRemote();
  remote.serveActor('/actor');
});
afterAll(async () => {
  await remote.close();
  await reset();
});

const allowed = (value?: string) =>
  loadConfig(value === undefined ? {} : { VAULT_ALLOW_PRIVATE_ADDRESS: value }).allowPrivateAddress;

const warnings = () =>
  logs
    .filter((record) => record.level === 'warning')
    .map((record) => record.message.join(''))
    .filter((message) => message.includes('VAULT_ALLOW_PRIVATE_ADDRESS'));

/** A Follow from the fake remote to alice, signed by the fake (its key is on 127.0.0.1). */
function delivery(origin: string) {
  const url = `${origin}/users/alice/inbox`;
  const body = JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${remote.origin}/follows/${Math.random()}`,
    type: 'Follow',
    actor: `${remote.origin}/actor`,
    object: `${origin}/users/alice`,
  });
  return new Request(url, { method: 'POST', headers: remote.cavageHeaders(url, body), body });
}

describe('VAULT_ALLOW_PRIVATE_ADDRESS', () => {
  it('is off by default and reads true/false (and 1/0, yes/no)', () => {
    expect(allowed()).toBe(false);
    expect(allowed('')).toBe(false);
    expect(allowed('false')).toBe(false);
    expect(allowed('true')).toBe(true);
    expect(allowed('1')).toBe(true);
    expect(allowed('no')).toBe(false);
  });

  it('refuses any other value with a ConfigError that names the setting', () => {
    for (const value of ['TRUE', 'on', 'maybe']) {
      expect(() => loadConfig({ VAULT_ALLOW_PRIVATE_ADDRESS: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ VAULT_ALLOW_PRIVATE_ADDRESS: value }), value).toThrow(
        /VAULT_ALLOW_PRIVATE_ADDRESS: must be true or false/,
      );
    }
  });

  it('when on, lets the vault fetch a sender’s key from 127.0.0.1 and logs a warning at start', async () => {
    logs.length = 0;
    const vault = createTestVault({ env: { VAULT_ALLOW_PRIVATE_ADDRESS: 'true' } });
    try {
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toContain('private, loopback and link-local');
      await vault.createUser({ username: 'alice', activityPubEnabled: true });
      expect((await vault.app.request(delivery(vault.origin))).status).toBe(202);
    } finally {
      await vault.close();
    }
  });

  it('when off, refuses to fetch a key from 127.0.0.1 (the delivery is 401) and warns of nothing', async () => {
    logs.length = 0;
    const vault = createTestVault();
    try {
      expect(warnings()).toEqual([]);
      await vault.createUser({ username: 'alice', activityPubEnabled: true });
      const fetched = remote.received.length;
      expect((await vault.app.request(delivery(vault.origin))).status).toBe(401);
      expect(remote.received.length).toBe(fetched);
    } finally {
      await vault.close();
    }
  });
});
