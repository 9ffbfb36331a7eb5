// Which way the cellar screen groups its entries and what it is narrowed to, kept in the address
// (?by=window&type=WINE&place=3) so that a link (the dashboard's count) or Back leads to it.
import { useSearchParams } from 'wouter';
import type { BeverageType } from '../api/types.ts';
import type { CellarFilter } from './api.ts';

/** 'status': the description's 'Ready to pour' and 'Waiting to be opened'. */
export type CellarView = 'status' | 'window' | 'place';

export const CELLAR_VIEWS: readonly [CellarView, string][] = [
  ['status', 'Opened or not'],
  ['window', 'Drinking window'],
  ['place', 'Place'],
];

const TYPES: readonly string[] = ['WHISKEY', 'WINE', 'BEER'];

/** The address of the cellar grouped by drinking window, at 'Past its window'. */
export const PAST_WINDOW_HREF = '/cellar?by=window#past-its-window';

export interface CellarViewState {
  view: CellarView;
  filter: CellarFilter;
  setView: (view: CellarView) => void;
  setFilter: (filter: CellarFilter) => void;
}

export function useCellarViewState(): CellarViewState {
  const [params, setParams] = useSearchParams();
  const by = params.get('by');
  const view: CellarView = by === 'window' || by === 'place' ? by : 'status';
  const type = params.get('type') ?? '';
  const place = params.get('place') ?? '';
  const filter: CellarFilter = {
    ...(TYPES.includes(type) && { type: type as BeverageType }),
    ...(/^[1-9][0-9]{0,15}$/.test(place) && { placeId: place }),
  };
  const write = (next: { view: CellarView; filter: CellarFilter }) => {
    const search = new URLSearchParams();
    if (next.view !== 'status') search.set('by', next.view);
    if (next.filter.type) search.set('type', next.filter.type);
    if (next.filter.placeId) search.set('place', next.filter.placeId);
    setParams(search, { replace: true });
  };
  return {
    view,
    filter,
    setView: (next) => write({ view: next, filter }),
    setFilter: (next) => write({ view, filter: next }),
  };
}
