// Pieces both statistics pages use: the figures, the type filter, the data of each chart, and
// the loading and error states.
import type { ReactNode } from 'react';
import type { BeverageType } from '../api/types.ts';
import type { MonthCount, Ranked, StatsSummary } from './api.ts';
import type { ChartData, Series } from './charts.tsx';
import { TYPES, monthLong, monthShort, ratingLabel, typeLabel } from './format.ts';

export type TypeChoice = BeverageType | 'ALL';

const TONE = { WHISKEY: 'whiskey', WINE: 'wine', BEER: 'beer' } as const;

/** The headline numbers of a set of entries. */
export function Figures({ summary, label }: { summary: StatsSummary; label: string }) {
  const average = summary.averageRating === null ? '–' : summary.averageRating.toFixed(1);
  const items: [string, ReactNode][] = [
    ['Entries', summary.total],
    ['Tried', summary.tried],
    ['To try', summary.toTry],
    ['In cellar', summary.inCellar],
    ['Average rating', average],
  ];
  return (
    <dl className="stats-figures" aria-label={label}>
      {items.map(([term, value]) => (
        <div key={term} className="stats-figures__item">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** All, Whiskey, Wine, Beer: which entries the figures and charts below count. */
export function TypeFilter({
  value,
  onChange,
}: {
  value: TypeChoice;
  onChange: (value: TypeChoice) => void;
}) {
  const choices: [TypeChoice, string][] = [
    ['ALL', 'All'],
    ...TYPES.map((type): [TypeChoice, string] => [type, typeLabel(type)]),
  ];
  return (
    <div className="stats-filter" role="group" aria-label="Show figures for">
      {choices.map(([choice, label]) => (
        <button
          key={choice}
          type="button"
          className="stats-filter__button"
          aria-pressed={value === choice}
          onClick={() => onChange(choice)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** Entries per month, one series per type shown. */
export function monthsChart(months: MonthCount[], type: TypeChoice, longNames = true): ChartData {
  const shown = type === 'ALL' ? TYPES : [type];
  const series: Series[] = shown.map((t) => ({
    label: typeLabel(t),
    tone: TONE[t],
    values: months.map((m) => m.counts[t]),
  }));
  return {
    categories: months.map((m) => monthShort(m.month)),
    names: months.map((m) => (longNames ? monthLong(m.month) : monthShort(m.month))),
    series,
  };
}

export function ratingsChart(summary: StatsSummary): ChartData {
  return {
    categories: summary.ratings.map((_, rating) => String(rating)),
    names: summary.ratings.map((_, rating) => ratingLabel(rating)),
    series: [{ label: 'Tried entries', tone: 'single', values: summary.ratings }],
  };
}

export function rankedChart(ranked: Ranked[]): ChartData {
  return {
    categories: ranked.map((r) => r.name),
    series: [{ label: 'Entries', tone: 'single', values: ranked.map((r) => r.count) }],
  };
}

/** Tried and to try, one bar per type. */
export function triedByTypeChart(types: Record<BeverageType, StatsSummary>): ChartData {
  return {
    categories: TYPES.map(typeLabel),
    series: [
      { label: 'Tried', tone: 'tried', values: TYPES.map((t) => types[t].tried) },
      { label: 'To try', tone: 'to-try', values: TYPES.map((t) => types[t].toTry) },
    ],
  };
}

export function Loading() {
  return (
    <p className="list-status" role="status">
      Counting your entries…
    </p>
  );
}

export function LoadError({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div className="list-error">
      <p role="alert" className="form-error">
        {message}
      </p>
      <button type="button" className="button button--secondary" onClick={retry}>
        Try again
      </button>
    </div>
  );
}
