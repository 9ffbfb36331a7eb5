import { Suspense, useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { BeverageType } from '../api/types.ts';
import { BEVERAGE_KINDS, BEVERAGE_TYPES } from '../beverages.ts';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import type { CellarSummary } from './api.ts';
import { litres, money, placeLabel } from './format.ts';
import type { CellarState } from './useCellar.ts';
import { CELLAR_VIEWS } from './view-state.ts';
import type { CellarViewState } from './view-state.ts';
import './cellar.css';

const PlacesDialog = lazyNamed(() => import('./PlacesDialog.tsx'), 'PlacesDialog');

/** The cellar in figures: bottles, entries, litres and what it is worth per currency. */
function Figures({ summary }: { summary: CellarSummary }) {
  const titleId = useId();
  const items: [string, ReactNode][] = [
    ['Bottles', summary.bottles],
    ['Entries', summary.entries],
    ['Litres', litres(summary.litres)],
  ];
  if (summary.value.length > 0) {
    items.push([
      'Value',
      summary.value.map((m) => (
        <span key={m.currency} className="cellar-figures__money">
          {money(m)}
        </span>
      )),
    ]);
  }
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className="visually-hidden">
        The cellar in figures
      </h2>
      <dl className="cellar-figures">
        {items.map(([term, value]) => (
          <div key={term} className="cellar-figures__item">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A row of toggle buttons under a label, one pressed. */
function Choice<T extends string>({
  label,
  choices,
  value,
  onChange,
}: {
  label: string;
  choices: readonly (readonly [T, string])[];
  value: T;
  onChange: (value: T) => void;
}) {
  const labelId = useId();
  return (
    <div className="cellar-choice" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="field__label cellar-choice__label">
        {label}
      </span>
      {choices.map(([choice, text]) => (
        <button
          key={choice}
          type="button"
          className="cellar-choice__button"
          aria-pressed={value === choice}
          onClick={() => onChange(choice)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

type TypeChoice = BeverageType | 'ALL';

const TYPE_CHOICES: readonly (readonly [TypeChoice, string])[] = [
  ['ALL', 'All'],
  ...BEVERAGE_TYPES.map((t) => [t, BEVERAGE_KINDS[t].label] as const),
];

/** Type and place: what every grouping of the cellar below is narrowed to. */
function Filters({ cellar, state }: { cellar: CellarState; state: CellarViewState }) {
  const placeId = useId();
  const { filter, setFilter } = state;
  return (
    <div className="cellar-filters">
      <Choice
        label="Type"
        choices={TYPE_CHOICES}
        value={filter.type ?? 'ALL'}
        onChange={(type) => setFilter({ ...filter, type: type === 'ALL' ? undefined : type })}
      />
      {cellar.places.length > 0 && (
        <div className="cellar-filters__place">
          <label htmlFor={placeId} className="field__label">
            Place
          </label>
          <select
            id={placeId}
            className="field__input"
            value={filter.placeId ?? ''}
            onChange={(event) => setFilter({ ...filter, placeId: event.target.value || undefined })}
          >
            <option value="">Every place</option>
            {cellar.places.map((place) => (
              <option key={place.id} value={String(place.id)}>
                {placeLabel(place.path)}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/**
 * Above the cellar's groups: 'Places' (the places dialog) always; once the user keeps places,
 * bottles or windows, also the figures, the filters and the choice of grouping.
 */
export function CellarTools({ cellar, state }: { cellar: CellarState; state: CellarViewState }) {
  const [placesOpen, setPlacesOpen] = useState(false);
  const { summary } = cellar;
  return (
    <div className="cellar-tools">
      <div className="cellar-tools__bar">
        <button
          type="button"
          className="button button--secondary cellar-tools__places"
          onClick={() => setPlacesOpen(true)}
          onPointerEnter={PlacesDialog.preload}
        >
          Places
        </button>
      </div>
      {cellar.used && summary && <Figures summary={summary} />}
      {cellar.used && (
        <>
          <Filters cellar={cellar} state={state} />
          <Choice
            label="Group by"
            choices={CELLAR_VIEWS}
            value={state.view}
            onChange={state.setView}
          />
        </>
      )}
      {placesOpen && (
        <Suspense fallback={<DialogLoading />}>
          <PlacesDialog onClose={() => setPlacesOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
