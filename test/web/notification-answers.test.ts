import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../web/src/api/client.ts';
import {
  fetchNotifications,
  pendingCountOf,
  respondBody,
  respondToNotification,
} from '../../web/src/api/notifications.ts';
import { queryKeys } from '../../web/src/api/query-keys.ts';
import type { VaultNotification } from '../../web/src/api/types.ts';
import {
  ADDED_TO_TO_TRY,
  ADDED_TO_TRIED,
  choicesFor,
  describe as describeNotification,
  INVITATION_DECLINED,
  linkOf,
  outcomeOf,
  staleAfter,
  withAnswered,
} from '../../web/src/notifications/answers.ts';

function notification(overrides: Partial<VaultNotification> = {}): VaultNotification {
  return {
    id: 1,
    type: 'FOLLOW_INVITE',
    status: 'PENDING',
    sender: { fullName: 'Basil Hayden', username: 'basil', following: false, requested: false },
    beverage: null,
    payload: {},
    createdAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

const share = (overrides: Partial<VaultNotification> = {}) =>
  notification({ type: 'SHARE_INVITE', beverage: { id: 7, name: 'Cask 55' }, ...overrides });

describe('the answers of the Alerts panel', () => {
  it("offers 'Follow back' and 'Dismiss' for a follow, without a note", () => {
    const choices = choicesFor(notification());
    expect(choices.map((choice) => choice.label)).toEqual(['Follow back', 'Dismiss']);
    expect(choices.map((choice) => choice.answer)).toEqual([
      { action: 'ACCEPT' },
      { action: 'DECLINE' },
    ]);
    expect(choices.every((choice) => choice.note === undefined)).toBe(true);
  });

  it("offers only 'Dismiss' for a follow from someone followed already or asked to follow", () => {
    const basil = notification().sender;
    for (const sender of [
      { ...basil, following: true },
      { ...basil, requested: true },
    ]) {
      const choices = choicesFor(notification({ sender }));
      expect(choices.map((choice) => [choice.label, choice.answer])).toEqual([
        ['Dismiss', { action: 'DECLINE' }],
      ]);
    }
  });

  it("offers 'Add to tried', 'Add to to-try' and 'Decline' for a share, each with its note", () => {
    const choices = choicesFor(share());
    expect(choices.map((choice) => [choice.label, choice.answer, choice.note])).toEqual([
      ['Add to tried', { action: 'ACCEPT', status: 'TRIED' }, 'Beverage added to tried vault'],
      ['Add to to-try', { action: 'ACCEPT', status: 'TO_TRY' }, 'Beverage added to to-try list'],
      ['Decline', { action: 'DECLINE' }, 'Invitation declined'],
    ]);
    expect([ADDED_TO_TRIED, ADDED_TO_TO_TRY, INVITATION_DECLINED]).toEqual([
      'Beverage added to tried vault',
      'Beverage added to to-try list',
      'Invitation declined',
    ]);
  });

  it("offers 'Accept' and 'Decline' for a follow request, and only 'Dismiss' for a cheer or comment", () => {
    const request = choicesFor(notification({ type: 'FOLLOW_REQUEST' }));
    expect(request.map((choice) => [choice.label, choice.answer, choice.primary])).toEqual([
      ['Accept', { action: 'ACCEPT' }, true],
      ['Decline', { action: 'DECLINE' }, undefined],
    ]);
    // Each answer says what it did.
    expect(request.map((choice) => choice.note)).toEqual([
      'Basil Hayden now follows you',
      'Follow request from Basil Hayden declined',
    ]);
    for (const type of ['CHEER', 'COMMENT'] as const) {
      const choices = choicesFor(notification({ type, beverage: { id: 7, name: 'Cask 55' } }));
      expect(choices.map((choice) => [choice.label, choice.answer])).toEqual([
        ['Dismiss', { action: 'DECLINE' }],
      ]);
    }
  });

  it('says who asks to follow, cheered or commented on which entry, and how it was answered', () => {
    const on = { beverage: { id: 7, name: 'Cask 55' } };
    expect(describeNotification(notification({ type: 'FOLLOW_REQUEST' }))).toBe(
      'Basil Hayden asks to follow you',
    );
    expect(describeNotification(notification({ type: 'CHEER', ...on }))).toBe(
      'Basil Hayden cheered your Cask 55',
    );
    expect(describeNotification(notification({ type: 'COMMENT', ...on }))).toBe(
      'Basil Hayden commented on your Cask 55',
    );
    expect(outcomeOf(notification({ type: 'FOLLOW_REQUEST', status: 'ACCEPTED' }))).toBe(
      'Accepted',
    );
    expect(outcomeOf(notification({ type: 'FOLLOW_REQUEST', status: 'DECLINED' }))).toBe(
      'Declined',
    );
    expect(outcomeOf(notification({ type: 'CHEER', status: 'DECLINED', ...on }))).toBe('Dismissed');
    expect(outcomeOf(notification({ type: 'COMMENT', status: 'DECLINED', ...on }))).toBe(
      'Dismissed',
    );
    expect(staleAfter(notification({ type: 'FOLLOW_REQUEST' }), { action: 'ACCEPT' })).toEqual([
      queryKeys.followers,
    ]);
    expect(staleAfter(notification({ type: 'CHEER', ...on }), { action: 'DECLINE' })).toEqual([]);
  });

  it("links a cheer or a comment to its entry's thread, and nothing else", () => {
    const entry = { id: 42, name: 'Walk Talk Stout' };
    expect(linkOf(notification({ type: 'COMMENT', beverage: entry }))).toEqual({
      label: 'See the comment',
      href: '/?entry=42',
    });
    expect(linkOf(notification({ type: 'CHEER', beverage: entry, status: 'DECLINED' }))).toEqual({
      label: 'See the entry',
      href: '/?entry=42',
    });
    expect(linkOf(notification({ type: 'COMMENT' }))).toBeNull();
    expect(linkOf(share())).toBeNull();
    expect(linkOf(notification())).toBeNull();
  });

  it('says who answered, cheered or mentioned, and links each to its thread', () => {
    const entry = { id: 42, name: 'Walk Talk Stout' };
    for (const [type, said] of [
      ['REPLY', 'Basil Hayden answered your comment on Walk Talk Stout'],
      ['COMMENT_CHEER', 'Basil Hayden cheered your comment on Walk Talk Stout'],
      ['MENTION', 'Basil Hayden mentioned you on Walk Talk Stout'],
    ] as const) {
      const item = notification({ type, beverage: entry });
      expect(describeNotification(item)).toBe(said);
      expect(linkOf(item)).toEqual({ label: 'See the comment', href: '/?entry=42' });
      expect(choicesFor(item).map((choice) => choice.label)).toEqual(['Dismiss']);
    }
  });

  it('links a mention in a post from elsewhere to the original, and only an http(s) one', () => {
    const url = 'https://example.social/@ann/1234';
    const mention = notification({ type: 'MENTION', payload: { message: 'Hi @basil', url } });
    expect(describeNotification(mention)).toBe('Basil Hayden mentioned you');
    expect(linkOf(mention)).toEqual({ label: 'See the post', href: url, external: true });
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'not a url', '']) {
      expect(linkOf(notification({ type: 'MENTION', payload: { url: bad } }))).toBeNull();
    }
    expect(linkOf(notification({ type: 'MENTION' }))).toBeNull();
    // An entry here wins: the thread is the place to answer.
    const entry = { id: 42, name: 'Walk Talk Stout' };
    expect(linkOf({ ...mention, beverage: entry })?.href).toBe('/?entry=42');
  });

  it('sends status only with the ACCEPT of a share', () => {
    expect(respondBody({ action: 'ACCEPT', status: 'TO_TRY' })).toEqual({
      action: 'ACCEPT',
      status: 'TO_TRY',
    });
    expect(respondBody({ action: 'ACCEPT' })).toEqual({ action: 'ACCEPT' });
    expect(respondBody({ action: 'DECLINE', status: 'TRIED' })).toEqual({ action: 'DECLINE' });
  });

  it('says who did what, and how an answered one was answered', () => {
    expect(describeNotification(notification())).toBe('Basil Hayden followed you');
    expect(describeNotification(share())).toBe('Basil Hayden shared Cask 55 with you');
    expect(
      describeNotification(
        notification({
          sender: { fullName: '', username: 'basil', following: false, requested: false },
        }),
      ),
    ).toBe('basil followed you');
    expect(outcomeOf(notification())).toBeNull();
    expect(outcomeOf(notification({ status: 'ACCEPTED' }))).toBe('Followed back');
    expect(outcomeOf(notification({ status: 'DECLINED' }))).toBe('Dismissed');
    expect(outcomeOf(share({ status: 'ACCEPTED' }))).toBe('Added to your vault');
    expect(outcomeOf(share({ status: 'DECLINED' }))).toBe('Declined');
  });

  it('counts the pending ones and puts an answered one in place', () => {
    const list = [notification({ id: 1 }), share({ id: 2 }), share({ id: 3, status: 'DECLINED' })];
    expect(pendingCountOf(list)).toBe(2);
    const answered = withAnswered(list, share({ id: 2, status: 'ACCEPTED' }));
    expect(answered?.map((item) => item.status)).toEqual(['PENDING', 'ACCEPTED', 'DECLINED']);
    expect(pendingCountOf(answered ?? [])).toBe(1);
    expect(withAnswered(undefined, share())).toBeUndefined();
  });

  it('makes the follow lists stale after a follow back, and the entry lists after a share', () => {
    expect(staleAfter(notification(), { action: 'ACCEPT' })).toEqual(
      expect.arrayContaining([queryKeys.following, queryKeys.followers]),
    );
    expect(staleAfter(share(), { action: 'ACCEPT', status: 'TRIED' })).toEqual([
      queryKeys.beverages.all,
    ]);
    expect(staleAfter(notification(), { action: 'DECLINE' })).toEqual([]);
    expect(staleAfter(share(), { action: 'DECLINE' })).toEqual([]);
  });
});

describe('the notification calls', () => {
  const calls: { url: string; init: RequestInit }[] = [];
  function answer(body: unknown, status = 200) {
    calls.length = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    });
  }
  afterEach(() => vi.unstubAllGlobals());

  it('reads GET /notifications', async () => {
    answer({ notifications: [notification()] });
    expect(await fetchNotifications()).toEqual([notification()]);
    expect(calls[0]?.url).toBe('/api/notifications');
  });

  it('answers with POST /notifications/{id}/respond and reads the notification and entry', async () => {
    const accepted = share({ id: 9, status: 'ACCEPTED' });
    answer({ notification: accepted, beverage: { id: 7, name: 'Cask 55' } });
    const result = await respondToNotification(9, { action: 'ACCEPT', status: 'TRIED' });
    expect(result.notification).toEqual(accepted);
    expect(result.beverage).toEqual({ id: 7, name: 'Cask 55' });
    expect(calls[0]?.url).toBe('/api/notifications/9/respond');
    expect(calls[0]?.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ action: 'ACCEPT', status: 'TRIED' });
  });

  it("shows the server's refusal, and refuses an answer that is not a JSON object", async () => {
    answer({ message: 'This notification was already answered' }, 409);
    const refused = await respondToNotification(9, { action: 'DECLINE' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe('This notification was already answered');
    answer(['not', 'an', 'object']);
    const odd = await respondToNotification(9, { action: 'DECLINE' }).catch((e: unknown) => e);
    expect((odd as ApiError).message).toBe('Invalid response from server');
  });
});
