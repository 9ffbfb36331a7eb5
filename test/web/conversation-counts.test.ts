import { QueryClient } from '@tanstack/query-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMENT_MAX_LENGTH as CONTRACT_MAX } from '../../contract/conversation.ts';
import {
  COMMENT_MAX_LENGTH,
  deleteComment,
  entryPath,
  fetchComments,
  postComment,
  setCheer,
  setCommentCheer,
} from '../../web/src/api/conversation.ts';
import { queryKeys } from '../../web/src/api/query-keys.ts';
import { afterCheer, changeCounts, countsOf } from '../../web/src/conversation/counts.ts';

const counts = { cheerCount: 2, cheeredByMe: false, commentCount: 1 };

describe("an entry's conversation counts", () => {
  it('are zero for a cached copy without them', () => {
    expect(countsOf({ id: 1 })).toEqual({ cheerCount: 0, cheeredByMe: false, commentCount: 0 });
    expect(countsOf({ id: 1, ...counts })).toEqual(counts);
  });

  it('count a cheer once, and its taking back once', () => {
    const cheered = afterCheer(counts, true);
    expect(cheered).toEqual({ ...counts, cheerCount: 3, cheeredByMe: true });
    expect(afterCheer(cheered, true)).toBe(cheered);
    expect(afterCheer(cheered, false)).toEqual(counts);
    expect(afterCheer({ ...counts, cheerCount: 0, cheeredByMe: true }, false).cheerCount).toBe(0);
  });

  it("change in every cached copy of the entry: the feed's and the lists'", () => {
    const client = new QueryClient();
    const entry = { id: 7, name: 'Oban 14', ...counts };
    const other = { id: 8, name: 'Talisker 10', ...counts };
    const page = (beverages: object[]) => ({
      pages: [{ beverages, nextCursor: null }],
      pageParams: [undefined],
    });
    client.setQueryData(
      queryKeys.beverages.list({}, { pageSize: 4, fixed: true }),
      page([entry, other]),
    );
    client.setQueryData(
      queryKeys.beverages.list({ type: 'WINE' }, { pageSize: 50, fixed: false }),
      page([other]),
    );
    client.setQueryData(queryKeys.activity, {
      pages: [
        {
          activities: [
            { id: 1, kind: 'local', beverage: entry },
            { id: 2, kind: 'remote', beverage: { ...entry, name: 'Remote seven' } },
          ],
          nextCursor: null,
        },
      ],
      pageParams: [undefined],
    });
    const wine = client.getQueryData(
      queryKeys.beverages.list({ type: 'WINE' }, { pageSize: 50, fixed: false }),
    );

    changeCounts(client, { kind: 'local', id: 7 }, (now) => afterCheer(now, true));

    const list = client.getQueryData<{ pages: { beverages: object[] }[] }>(
      queryKeys.beverages.list({}, { pageSize: 4, fixed: true }),
    );
    expect(list?.pages[0]?.beverages).toEqual([
      { ...entry, cheerCount: 3, cheeredByMe: true },
      other,
    ]);
    const feed = client.getQueryData<{ pages: { activities: { beverage: object }[] }[] }>(
      queryKeys.activity,
    );
    expect(feed?.pages[0]?.activities.map((item) => item.beverage)).toEqual([
      { ...entry, cheerCount: 3, cheeredByMe: true },
      { ...entry, name: 'Remote seven' },
    ]);
    // A list without the entry is left as it was.
    expect(
      client.getQueryData(
        queryKeys.beverages.list({ type: 'WINE' }, { pageSize: 50, fixed: false }),
      ),
    ).toBe(wine);

    // A remote entry with the same id is another entry: only the feed's remote item changes.
    changeCounts(client, { kind: 'remote', id: 7 }, () => ({ commentCount: 5 }));
    const after = client.getQueryData<{
      pages: { activities: { beverage: { commentCount: number } }[] }[];
    }>(queryKeys.activity);
    expect(after?.pages[0]?.activities.map((item) => item.beverage.commentCount)).toEqual([1, 5]);
  });
});

describe('the conversation calls', () => {
  const calls: { url: string; init: RequestInit }[] = [];
  function answer(body: unknown, status = 200) {
    calls.length = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    });
  }
  afterEach(() => vi.unstubAllGlobals());

  it('keep the longest comment the contract allows', () => {
    expect(COMMENT_MAX_LENGTH).toBe(CONTRACT_MAX);
  });

  it('go to the entry of this vault, or to the remote entry of the feed', () => {
    expect(entryPath({ kind: 'local', id: 3 })).toBe('/beverages/3');
    expect(entryPath({ kind: 'remote', id: 3 })).toBe('/activity/remote-entries/3');
  });

  it('cheer with POST and take it back with DELETE, reading the counts', async () => {
    answer({ ...counts, cheerCount: 3, cheeredByMe: true });
    expect(await setCheer({ kind: 'remote', id: 4 }, true)).toEqual({
      ...counts,
      cheerCount: 3,
      cheeredByMe: true,
    });
    expect([calls[0]?.url, calls[0]?.init.method]).toEqual([
      '/api/activity/remote-entries/4/cheer',
      'POST',
    ]);
    answer(counts);
    await setCheer({ kind: 'local', id: 4 }, false);
    expect([calls[0]?.url, calls[0]?.init.method]).toEqual(['/api/beverages/4/cheer', 'DELETE']);
    answer([counts]);
    await expect(setCheer({ kind: 'local', id: 4 }, true)).rejects.toThrow(
      'Invalid response from server',
    );
  });

  it("cheer a comment with POST and take it back with DELETE, reading the comment's cheers", async () => {
    answer({ cheerCount: 1, cheeredByMe: true });
    expect(await setCommentCheer({ kind: 'local', id: 4 }, 9, true)).toEqual({
      cheerCount: 1,
      cheeredByMe: true,
    });
    expect([calls[0]?.url, calls[0]?.init.method]).toEqual([
      '/api/beverages/4/comments/9/cheer',
      'POST',
    ]);
    answer({ cheerCount: 0, cheeredByMe: false });
    await setCommentCheer({ kind: 'remote', id: 4 }, 9, false);
    expect([calls[0]?.url, calls[0]?.init.method]).toEqual([
      '/api/activity/remote-entries/4/comments/9/cheer',
      'DELETE',
    ]);
  });

  it('list, post and delete comments, and show the refusal', async () => {
    const comment = {
      id: 1,
      author: { fullName: 'Ash', username: 'ash', handle: null, avatarUrl: null },
      content: 'Hi',
      createdAt: '2026-11-26T10:00:00.000Z',
      canDelete: true,
      parentId: null,
      audience: 'PUBLIC' as const,
      deleted: false,
      mentions: [],
      cheerCount: 0,
      cheeredByMe: false,
    };
    answer({ comments: [comment] });
    expect(await fetchComments({ kind: 'local', id: 2 })).toEqual([comment]);
    expect(calls[0]?.url).toBe('/api/beverages/2/comments');
    answer({ comment }, 201);
    expect(await postComment({ kind: 'local', id: 2 }, { content: 'Hi' })).toEqual(comment);
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ content: 'Hi' });
    answer({ comment }, 201);
    await postComment({ kind: 'remote', id: 2 }, { content: 'Hi', inReplyTo: 1, private: true });
    expect(calls[0]?.url).toBe('/api/activity/remote-entries/2/comments');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({
      content: 'Hi',
      inReplyTo: 1,
      private: true,
    });
    answer(undefined, 204);
    await deleteComment({ kind: 'remote', id: 2 }, 1);
    expect([calls[0]?.url, calls[0]?.init.method]).toEqual([
      '/api/activity/remote-entries/2/comments/1',
      'DELETE',
    ]);
    answer({ message: 'Comment must be at most 1000 characters' }, 400);
    await expect(postComment({ kind: 'local', id: 2 }, { content: 'x' })).rejects.toThrow(
      'Comment must be at most 1000 characters',
    );
  });
});
