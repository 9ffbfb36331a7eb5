/**
 * The counts an entry's card shows (cheers, whether the user cheered, comments), kept where the
 * entry itself is kept: in the query cache's lists of entries and the activity feed. A cheer or
 * a comment changes the entry's copy in every cached list at once, so every card of it follows.
 * The pure parts are unit-tested in test/web/conversation-counts.test.ts.
 */
import type { InfiniteData, QueryClient } from '@tanstack/query-core';
import type { ConversationCounts, ConversationTarget } from '../api/conversation.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { ActivityPage, BeveragePage } from '../api/types.ts';

/** The query key of an entry's comments. */
export const commentsKey = (target: ConversationTarget) =>
  ['comments', target.kind, target.id] as const;

/** An entry's counts (a cached copy that somehow lacks them has none). */
export function countsOf(of: object): ConversationCounts {
  const entry = of as Partial<ConversationCounts>;
  return {
    cheerCount: entry.cheerCount ?? 0,
    cheeredByMe: entry.cheeredByMe ?? false,
    commentCount: entry.commentCount ?? 0,
  };
}

/**
 * The counts of an entry or a comment after the user cheers (`cheered`) or takes it back,
 * before the server says.
 */
export function afterCheer<T extends Pick<ConversationCounts, 'cheerCount' | 'cheeredByMe'>>(
  counts: T,
  cheered: boolean,
): T {
  if (counts.cheeredByMe === cheered) return counts;
  return {
    ...counts,
    cheeredByMe: cheered,
    cheerCount: Math.max(0, counts.cheerCount + (cheered ? 1 : -1)),
  };
}

type Change = (counts: ConversationCounts) => Partial<ConversationCounts>;

function patched<T extends object>(entry: T, change: Change): T {
  return { ...entry, ...change(countsOf(entry)) };
}

/** The feed's pages with the target's entry changed; the same object when it is not there. */
export function patchActivity(
  data: InfiniteData<ActivityPage> | undefined,
  target: ConversationTarget,
  change: Change,
): InfiniteData<ActivityPage> | undefined {
  if (!data) return data;
  let touched = false;
  const pages = data.pages.map((page) => {
    if (
      !page.activities.some((item) => item.kind === target.kind && item.beverage.id === target.id)
    ) {
      return page;
    }
    touched = true;
    return {
      ...page,
      activities: page.activities.map((item) =>
        item.kind === target.kind && item.beverage.id === target.id
          ? ({ ...item, beverage: patched(item.beverage, change) } as typeof item)
          : item,
      ),
    };
  });
  return touched ? { ...data, pages } : data;
}

/** A list of entries with the entry `id` changed; the same object when it is not there. */
export function patchEntryList(
  data: InfiniteData<BeveragePage> | undefined,
  id: number,
  change: Change,
): InfiniteData<BeveragePage> | undefined {
  if (!data?.pages) return data;
  let touched = false;
  const pages = data.pages.map((page) => {
    if (!page.beverages.some((entry) => entry.id === id)) return page;
    touched = true;
    return {
      ...page,
      beverages: page.beverages.map((entry) => (entry.id === id ? patched(entry, change) : entry)),
    };
  });
  return touched ? { ...data, pages } : data;
}

/** Changes the target's counts in every cached copy of its entry. */
export function changeCounts(
  client: QueryClient,
  target: ConversationTarget,
  change: Change,
): void {
  client.setQueriesData<InfiniteData<ActivityPage>>({ queryKey: queryKeys.activity }, (data) =>
    patchActivity(data, target, change),
  );
  if (target.kind !== 'local') return;
  client.setQueriesData<InfiniteData<BeveragePage>>({ queryKey: queryKeys.beverages.all }, (data) =>
    patchEntryList(data, target.id, change),
  );
}
