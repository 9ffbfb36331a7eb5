import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import type { Beverage } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { EntryList } from '../vault/EntryList.tsx';
import { useBeverageList } from '../vault/useBeverageList.ts';
import { entryFilter, fetchCellarBottles } from './api.ts';
import type { CellarBottle, CellarFilter, CellarSummary, DrinkWindow } from './api.ts';
import { NO_PLACE, bottles, placeLabel, sizeLabel } from './format.ts';
import { datedEntries } from './useCellar.ts';
import './cellar.css';

const WINDOWS: readonly { window: DrinkWindow; title: string; id: string; empty: string }[] = [
  { window: 'NOW', title: 'Drink now', id: 'drink-now', empty: 'Nothing to drink this year.' },
  {
    window: 'PAST',
    title: 'Past its window',
    id: 'past-its-window',
    empty: 'Nothing past its window.',
  },
  {
    window: 'LATER',
    title: 'Not ready yet',
    id: 'not-ready-yet',
    empty: 'Nothing waiting for its window.',
  },
];

/**
 * Entries a drinking window's group shows before 'Load more': three groups are on the screen at
 * once, and the cards are most of what it costs to fill it (three pages of 50 took three times
 * as long to show as the 50 of 'Ready to pour').
 */
export const WINDOW_PAGE_SIZE = 20;

const filtered = (filter: CellarFilter) =>
  filter.type !== undefined || filter.placeId !== undefined;

/**
 * A window's bottles from the figures (which count by the cellar's one-bottle rule), for the
 * whole cellar or one type; undefined when narrowed to a place, which the figures do not cover.
 */
function figureOf(summary: CellarSummary | undefined, filter: CellarFilter, window: DrinkWindow) {
  if (!summary || filter.placeId !== undefined) return undefined;
  return filter.type ? summary.windowsByType[filter.type][window] : summary.windows[window];
}

/** The bottles of entries listed in a place: each has a bottle line there, so it holds some. */
const bottlesOf = (entries: Beverage[]): number =>
  entries.reduce((n, entry) => n + (entry.bottleCount ?? 0), 0);

/** One drinking window's entries, with how many bottles they hold. */
function WindowGroup({
  group,
  filter,
  summary,
}: {
  group: (typeof WINDOWS)[number];
  filter: CellarFilter;
  summary: CellarSummary | undefined;
}) {
  const titleId = useId();
  const list = useBeverageList(
    { cellar: true, window: group.window, ...entryFilter(filter) },
    { pageSize: WINDOW_PAGE_SIZE },
  );
  // The figures count the cellar, or one type of it; narrowed to a place, the entries listed.
  const figure = figureOf(summary, filter, group.window);
  const count =
    figure !== undefined
      ? bottles(figure)
      : list.loading
        ? ''
        : `${bottles(bottlesOf(list.entries))}${list.hasMore ? '+' : ''}`;
  // The dashboard's link leads to a group by its id: bring it into view once its entries are in.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const loaded = !list.loading;
  useEffect(() => {
    if (!loaded || window.location.hash !== `#${group.id}`) return;
    headingRef.current?.scrollIntoView({ block: 'start' });
    headingRef.current?.focus({ preventScroll: true });
  }, [loaded, group.id]);
  return (
    <section className="archive-group cellar-group" aria-labelledby={titleId} id={group.id}>
      <div className="archive-group__title cellar-group__header">
        <h2 id={titleId} ref={headingRef} className="cellar-group__title" tabIndex={-1}>
          {group.title}
        </h2>
        <span className="cellar-group__count">{count}</span>
      </div>
      <EntryList list={list} empty={group.empty} showType pageable />
    </section>
  );
}

/** Drink now, Past its window and Not ready yet, by the server's current year. */
function WindowGroups({
  filter,
  summary,
}: {
  filter: CellarFilter;
  summary: CellarSummary | undefined;
}) {
  return (
    <div className="archive">
      {summary && datedEntries(summary) === 0 && (
        <p className="cellar-hint">
          Give an entry a drinking window (from and until which year) when you edit it, and it shows
          here by the year {summary.year}.
        </p>
      )}
      {WINDOWS.map((group) => (
        <WindowGroup key={group.window} group={group} filter={filter} summary={summary} />
      ))}
    </div>
  );
}

interface PlaceGroup {
  key: string;
  label: string;
  lines: CellarBottle[];
}

/** Bottle lines, in the server's order (by place), gathered under their place. */
function byPlace(lines: CellarBottle[]): PlaceGroup[] {
  const groups: PlaceGroup[] = [];
  const seen = new Map<string, PlaceGroup>();
  for (const line of lines) {
    const key = line.placeId === null ? 'none' : String(line.placeId);
    let group = seen.get(key);
    if (!group) {
      group = {
        key,
        label: line.placeId === null ? NO_PLACE : placeLabel(line.placePath),
        lines: [],
      };
      seen.set(key, group);
      groups.push(group);
    }
    group.lines.push(line);
  }
  return groups;
}

function BottleLine({ line }: { line: CellarBottle }) {
  const details = [
    `${line.quantity} × ${sizeLabel(line.sizeMl)}`,
    line.vintage === null ? null : String(line.vintage),
    BEVERAGE_KINDS[line.entry.type].label,
  ].filter(Boolean);
  return (
    <li className="cellar-bottle">
      <span className="cellar-bottle__name">{line.entry.name}</span>
      <span className="cellar-bottle__details">{details.join(' · ')}</span>
    </li>
  );
}

function Place({ group }: { group: PlaceGroup }) {
  const titleId = useId();
  const count = group.lines.reduce((n, line) => n + line.quantity, 0);
  return (
    <section className="cellar-place" aria-labelledby={titleId}>
      <div className="cellar-group__header cellar-place__header">
        <h2 id={titleId} className="cellar-place__title">
          {group.label}
        </h2>
        <span className="cellar-group__count">{bottles(count)}</span>
      </div>
      <ul className="cellar-bottles">
        {group.lines.map((line) => (
          <BottleLine key={line.id} line={line} />
        ))}
      </ul>
    </section>
  );
}

/** The bottles, under the place each is in ('Basement › Rack A › Bin 3'), those without last. */
function PlaceView({ filter }: { filter: CellarFilter }) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.cellar.bottles({ ...filter }),
    queryFn: ({ pageParam, signal }) => fetchCellarBottles(filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const groups = useMemo(
    () => byPlace(query.data?.pages.flatMap((page) => page.bottles) ?? []),
    [query.data],
  );
  if (query.isPending) {
    return (
      <p className="list-status" role="status">
        Loading…
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="list-error">
        <p role="alert" className="form-error">
          {query.error.message}
        </p>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void query.refetch()}
        >
          Try again
        </button>
      </div>
    );
  }
  if (groups.length === 0) {
    return (
      <p className="empty-state">
        {filtered(filter) ? 'No bottles match these filters.' : 'No bottles in the cellar yet.'}
      </p>
    );
  }
  return (
    <div className="cellar-places">
      {groups.map((group) => (
        <Place key={group.key} group={group} />
      ))}
      {query.hasNextPage && (
        <button
          type="button"
          className="button button--secondary"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Show more bottles
        </button>
      )}
    </div>
  );
}

/** The cellar grouped by drinking window or by place (the description's groups are the screen's). */
export function CellarViews({
  view,
  filter,
  summary,
}: {
  view: 'window' | 'place';
  filter: CellarFilter;
  summary: CellarSummary | undefined;
}) {
  return view === 'window' ? (
    <WindowGroups filter={filter} summary={summary} />
  ) : (
    <PlaceView filter={filter} />
  );
}
