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
  /**
   * Whether `used` is known: the figures and the places have been answered, have failed, or
   * wait for a connection (offline with neither kept on the device).
   */
  known: boolean;
}

export const useCellarSummary = () =>
  useQuery({
    queryKey: queryKeys.cellar.summary,
    queryFn: ({ signal }) => fetchCellarSummary(signal),
  });

export const usePlaces = () =>
  useQuery({ queryKey: queryKeys.cellar.places, queryFn: ({ signal }) => fetchPlaces(signal) });

/**
 * The entries in the cellar with a drinking window this year: entries, not bottles, since an
 * entry whose bottles were all opened holds none and still has its window.
 */
export const datedEntries = (summary: CellarSummary): number =>
  summary.entriesByWindow.NOW + summary.entriesByWindow.PAST + summary.entriesByWindow.LATER;

/** The cellar's figures and places, and whether the user has begun to use them. */
export function useCellar(): CellarState {
  const summaryQuery = useCellarSummary();
  const placesQuery = usePlaces();
  const summary = summaryQuery.data;
  const places = placesQuery.data ?? [];
  const dated = summary ? datedEntries(summary) : 0;
  const used =
    places.length > 0 ||
    (summary !== undefined && (summary.litres > 0 || summary.value.length > 0 || dated > 0));
  const settled = (query: { isPending: boolean; fetchStatus: string }) =>
    !query.isPending || query.fetchStatus === 'paused';
  return { summary, places, used, known: settled(summaryQuery) && settled(placesQuery) };
}
