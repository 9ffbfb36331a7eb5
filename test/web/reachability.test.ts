import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NO_ANSWER, request } from '../../web/src/api/client.ts';
import {
  reportConnectionBack,
  reportReached,
  subscribeReachability,
  vaultUnreachable,
} from '../../web/src/api/reachability.ts';

/** Replaces the global fetch (the process edge); each call takes the next answer. */
function answers(...next: (() => Promise<Response>)[]): string[] {
  const urls: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    urls.push(url);
    const answer = next.shift();
    if (!answer) throw new Error(`no answer left for ${url}`);
    return answer();
  });
  return urls;
}

const noAnswer = () => Promise.reject(new TypeError('Failed to fetch'));
const ok = () => Promise.resolve(Response.json({ user: { id: 1 } }));
const status = (code: number) => () =>
  Promise.resolve(Response.json({ message: 'Not here' }, { status: code }));

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (caught: unknown) => caught,
  );
}

beforeEach(() => {
  // The store is one per page (module state): every test starts with the vault reachable.
  reportReached();
});

describe('whether the vault can be reached (the offline banner follows it)', () => {
  it('is unreachable after a request gets no answer, and reachable again after one gets an answer', async () => {
    answers(noAnswer, ok);
    const error = await failure(request('/beverages'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(NO_ANSWER);
    expect(vaultUnreachable()).toBe(true);

    await request('/beverages');
    expect(vaultUnreachable()).toBe(false);
  });

  it('counts an HTTP error answer as reached: the vault is there and said no', async () => {
    answers(noAnswer, status(503), noAnswer, status(404));
    await failure(request('/auth/me'));
    await failure(request('/auth/me'));
    expect(vaultUnreachable()).toBe(false);
    await failure(request('/auth/me'));
    await failure(request('/beverages/7'));
    expect(vaultUnreachable()).toBe(false);
  });

  it('leaves it as it was when a request is aborted', async () => {
    answers(noAnswer, () => Promise.reject(new DOMException('Aborted', 'AbortError')));
    await failure(request('/beverages'));
    const error = await failure(request('/users/search', { query: { q: 'birch' } }));
    expect((error as Error).name).toBe('AbortError');
    expect(vaultUnreachable()).toBe(true);
  });

  it("is reachable again when the browser says the connection is back ('online')", async () => {
    answers(noAnswer);
    await failure(request('/auth/me'));
    expect(vaultUnreachable()).toBe(true);
    reportConnectionBack();
    expect(vaultUnreachable()).toBe(false);
  });

  it('ignores a request sent before the connection came back that fails afterwards', async () => {
    let fail: (error: Error) => void = () => undefined;
    answers(
      () =>
        new Promise<Response>((_, reject) => {
          fail = reject;
        }),
      noAnswer,
    );
    const sentBefore = failure(request('/auth/me'));
    reportConnectionBack();
    fail(new TypeError('Failed to fetch'));
    expect(await sentBefore).toBeInstanceOf(ApiError);
    expect(vaultUnreachable()).toBe(false);
    // A request sent after it still tells.
    await failure(request('/auth/me'));
    expect(vaultUnreachable()).toBe(true);
  });

  it('tells its listeners after every answer or failure, so they read the state as it is now', async () => {
    answers(noAnswer, ok);
    const heard: boolean[] = [];
    const stop = subscribeReachability(() => heard.push(vaultUnreachable()));
    try {
      await failure(request('/auth/me'));
      await request('/auth/me');
      reportConnectionBack();
    } finally {
      stop();
    }
    expect(heard).toEqual([true, false, false]);
  });
});
