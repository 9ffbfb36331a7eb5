import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys.ts';
import { fetchCellarSummary, fetchPlaces } from './api.ts';
import type { CellarSummary, Place } from './api.ts';

export interface CellarState {
  summary: CellarSummary | undefined;
  places: Place[];
  /**
   * Whether the user keeps more than the 'In cellar' flag: a place, a bottle line or a drinking
   * window. Until then the cellar screen is the description's two groups and nothing more.
   */
  used: boolean;
}

export const useCellarSummary = () =>
  useQuery({
    queryKey: queryKeys.cellar.summary,
    queryFn: ({ signal }) => fetchCellarSummary(signal),
  });

export const usePlaces = () =>
  useQuery({ queryKey: queryKeys.cellar.places, queryFn: ({ signal }) => fetchPlaces(signal) });

/** The cellar's figures and places, and whether the user has begun to use them. */
export function useCellar(): CellarState {
  const summary = useCellarSummary().data;
  const places = usePlaces().data ?? [];
  const windows = summary ? summary.windows.NOW + summary.windows.PAST + summary.windows.LATER : 0;
  const used =
    places.length > 0 ||
    (summary !== undefined && (summary.litres > 0 || summary.value.length > 0 || windows > 0));
  return { summary, places, used };
}
