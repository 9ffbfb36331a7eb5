import { reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/logs.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/** A fetch of the instance actor (federation/instance-actor.ts) logs nothing to warn about. */

const logged: LogRecord[] = [];
let vault: TestVault;

beforeAll(async () => {
  vault = createTestVault();
  await captureLogs('debug', logged);
});
afterAll(async () => {
  await reset();
  await vault.close();
});

const warnings = () =>
  logged
    .filter((record) => record.level === 'warning' || record.level === 'error')
    .map((record) => `${record.category.join('.')}: ${record.message.join('')}`);

describe('a fetch of the instance actor', () => {
  it('answers the Application and logs no warning, the first time (keys made) and after', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await vault.request('/users/instance.actor', {
        headers: { accept: 'application/activity+json' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ type: 'Application' });
    }
    expect(warnings()).toEqual([]);
  });
});
