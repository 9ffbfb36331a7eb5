import { QueryClient, onlineManager } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectionMark,
  reportReached,
  reportUnreachable,
} from '../../web/src/api/reachability.ts';
import { followReachability } from '../../web/src/offline/follow-reachability.ts';

afterEach(() => {
  reportReached();
});

describe("the query cache's idea of online", () => {
  it('follows whether the vault answers, and never holds a write back', () => {
    const client = new QueryClient();
    followReachability(client);
    expect(onlineManager.isOnline()).toBe(true);

    reportUnreachable(connectionMark());
    expect(onlineManager.isOnline()).toBe(false);
    reportReached();
    expect(onlineManager.isOnline()).toBe(true);

    expect(client.getDefaultOptions().mutations?.networkMode).toBe('always');
  });
});
