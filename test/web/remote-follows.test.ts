import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, INVALID_RESPONSE } from '../../web/src/api/client.ts';
import {
  fetchRemoteFollowing,
  followRequested,
  lookupAccount,
} from '../../web/src/following/remote-api.ts';

/** The client's fediverse follow calls, against a stubbed fetch (the process edge). */

function answer(body: unknown, status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const actor = {
  actorUri: 'https://mastodon.example/users/bob',
  handle: '@bob@mastodon.example',
  displayName: 'Bob',
  summary: 'Peat <b>and</b> smoke',
  avatarUrl: null,
  followState: 'NONE',
  vault: false,
};

describe('looking up a fediverse account', () => {
  it('posts the query to /api/users/lookup and returns the account as the server gave it', async () => {
    const calls = answer({ actor });
    expect(await lookupAccount('@bob@mastodon.example')).toEqual(actor);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/users/lookup');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ query: '@bob@mastodon.example' });
  });

  it('passes the server’s message on (an unknown handle)', async () => {
    answer({ message: 'No account @nobody@mastodon.example was found.' }, 404);
    const error = await lookupAccount('@nobody@mastodon.example').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('No account @nobody@mastodon.example was found.');
  });

  it('calls an answer that is not a JSON object invalid', async () => {
    answer([actor]);
    const error = await lookupAccount('@bob@mastodon.example').catch((caught: unknown) => caught);
    expect((error as ApiError).message).toBe(INVALID_RESPONSE);
  });
});

describe('the fediverse accounts the user follows', () => {
  it('are the remote field of GET /api/users/following', async () => {
    const item = { followId: 1, actorId: 2, actorUri: actor.actorUri, state: 'PENDING' };
    answer({ following: [], remote: [item] });
    expect(await fetchRemoteFollowing()).toEqual([item]);
  });

  it('are told apart in the success note by their name, else their handle', () => {
    expect(followRequested({ displayName: 'Bob', handle: '@bob@x.example' })).toBe(
      'Follow request sent to Bob',
    );
    expect(followRequested({ displayName: '', handle: '@bob@x.example' })).toBe(
      'Follow request sent to @bob@x.example',
    );
  });
});
