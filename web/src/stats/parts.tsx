// Pieces both statistics pages use: the figures, the type filter, and the loading and error
// states (their charts are in entry-charts.tsx and cellar.tsx).
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { BeverageType } from '../api/types.ts';
import type { StatsSummary } from './api.ts';
import { TYPES, typeLabel } from './format.ts';

export type TypeChoice = BeverageType | 'ALL';

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

function Loading() {
  return (
    <p className="list-status" role="status">
      Counting your entries…
    </p>
  );
}

function LoadError({ message, retry }: { message: string; retry: () => void }) {
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

/** A page's figures once they are in: 'Counting your entries…' until then, or the error with Try again. */
export function Counted<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return <LoadError message={query.error.message} retry={() => void query.refetch()} />;
  }
  return children(query.data);
}
