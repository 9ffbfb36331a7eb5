import { createExponentialBackoffPolicy } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { Create, Note } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_RETRY, deliveryRetryPolicy } from '../../federation/delivery-policy.ts';
import { json } from '../helpers/json.ts';
import {
  AP,
  parseCavage,
  startBareFederation,
  startFakeRemote,
  until,
  verifyCavage,
  type FakeRemote,
} from './plumbing-remote.ts';

type Bare = Awaited<ReturnType<typeof startBareFederation>>;

let vault: Bare;
let remote: FakeRemote;
const goneCalls: { inbox: string; actorIds: string[]; reason: string }[] = [];
let alicePem = '';

beforeAll(async () => {
  remote = await startFakeRemote();
  vault = await startBareFederation({
    onDeliveryGone: (inbox, actorIds, reason) =>
      void goneCalls.push({ inbox: inbox.href, actorIds: actorIds.map((id) => id.href), reason }),
    // Retries after 50-100 ms, so that a retry, if any, happens within the test.
    outboxRetryPolicy: createExponentialBackoffPolicy({ initialDelay: { milliseconds: 50 } }),
  });
  const actor = await json(
    await vault.fetch(new Request(`${vault.origin}/users/alice`, { headers: { accept: AP } })),
  );
  alicePem = actor.publicKey.publicKeyPem;
  vault.startQueue();
});
afterAll(async () => {
  await vault.close();
  await remote.close();
});

/** Sends a Create(Note) from alice to a recipient whose inbox is `inboxPath` on the fake. */
async function sendTo(inboxPath: string, n: number) {
  const ctx = vault.context();
  const note = new Note({
    id: new URL(`${vault.origin}/users/alice/notes/${n}`),
    attribution: ctx.getActorUri('alice'),
    content: 'A dram of Talisker',
  });
  await ctx.sendActivity(
    { identifier: 'alice' },
    {
      id: new URL(`${remote.origin}/users/bob${n}`),
      inboxId: new URL(`${remote.origin}${inboxPath}`),
    },
    new Create({
      id: new URL(`${vault.origin}/users/alice/notes/${n}#create`),
      actor: ctx.getActorUri('alice'),
      object: note,
    }),
  );
}

const posts = (path: string) =>
  remote.received.filter((r) => r.method === 'POST' && r.path === path);

/**
 * Delivery attempts to `path`. On an error answer Fedify knocks again at once with the other
 * signature scheme (RFC 9421 after draft-cavage, or the reverse), so one attempt is one or two
 * POSTs, one of each scheme: the attempts are the larger of the two counts.
 */
function attempts(path: string): number {
  const all = posts(path);
  const rfc9421 = all.filter((r) => r.headers['signature-input'] !== undefined).length;
  return Math.max(rfc9421, all.length - rfc9421);
}

describe('outbound deliveries', () => {
  it('knock first with a draft-cavage signature (not RFC 9421) that verifies with alice’s key', async () => {
    remote.routes.set('/ok/inbox', (_req, res) => void res.writeHead(202).end());
    await sendTo('/ok/inbox', 1);
    await until(() => posts('/ok/inbox').length === 1);
    const [first] = posts('/ok/inbox');
    expect(first!.headers['signature-input']).toBeUndefined();
    expect(parseCavage(first!.headers.signature as string)).toMatchObject({
      keyId: `${vault.origin}/users/alice#main-key`,
      algorithm: 'rsa-sha256',
    });
    expect(
      verifyCavage({ method: 'POST', url: '/ok/inbox', headers: first!.headers }, alicePem),
    ).toBe(true);
  });

  it('to an inbox that answers 410 are not retried, and onDeliveryGone hears of it once', async () => {
    remote.routes.set('/gone/inbox', (_req, res) => void res.writeHead(410).end());
    await sendTo('/gone/inbox', 2);
    await until(() => goneCalls.length === 1);
    // A retry would come 50-100 ms later: give it time to show up.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(attempts('/gone/inbox')).toBe(1);
    expect(goneCalls).toEqual([
      {
        inbox: `${remote.origin}/gone/inbox`,
        actorIds: [`${remote.origin}/users/bob2`],
        reason: 'gone',
      },
    ]);
  });

  it('to an inbox that answers 404 count as gone as well', async () => {
    goneCalls.length = 0;
    remote.routes.set('/missing/inbox', (_req, res) => void res.writeHead(404).end());
    await sendTo('/missing/inbox', 3);
    await until(() => goneCalls.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(attempts('/missing/inbox')).toBe(1);
    expect(goneCalls[0]).toMatchObject({ reason: 'gone' });
  });

  it('to an inbox that fails with 500 are retried, and nobody is reported gone', async () => {
    goneCalls.length = 0;
    let answers = 0;
    // Both knocks of the first attempt fail; the retry succeeds.
    remote.routes.set('/flaky/inbox', (_req, res) => {
      answers += 1;
      res.writeHead(answers <= 2 ? 500 : 202).end();
    });
    await sendTo('/flaky/inbox', 4);
    await until(() => answers === 3);
    expect(attempts('/flaky/inbox')).toBe(2);
    expect(goneCalls).toEqual([]);
  });
});

describe('the delivery retry policy', () => {
  it('retries 12 times (13 attempts), starting at 1-2 minutes, doubling, at most 12 hours apart', () => {
    expect(DELIVERY_RETRY).toEqual({
      initialDelay: { minutes: 1 },
      factor: 2,
      maxDelay: { hours: 12 },
      maxAttempts: 12,
    });
    const policy = deliveryRetryPolicy();
    const elapsedTime = Temporal.Duration.from({
      seconds: 0,
    }) as unknown as globalThis.Temporal.Duration;
    const delay = (attempts: number) =>
      policy({ attempts, elapsedTime })?.total({ unit: 'minutes' });
    expect(delay(0)).toBeGreaterThanOrEqual(1);
    expect(delay(0)).toBeLessThanOrEqual(2);
    expect(delay(3)).toBeGreaterThanOrEqual(8);
    expect(delay(11)).toBe(12 * 60);
    expect(delay(12)).toBeUndefined();
  });
});
