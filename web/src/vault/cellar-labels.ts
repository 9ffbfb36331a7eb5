/** How the cellar's parts of an entry read on its card. */

/**
 * How an entry's drinking window reads on its card: 'Drink 2026–2032', 'Drink from 2026',
 * 'Drink until 2032' (a one-year window: 'Drink 2026'); null without one.
 */
export function drinkWindowLabel(from: number | null, until: number | null): string | null {
  if (from !== null && until !== null) {
    return from === until ? `Drink ${from}` : `Drink ${from}–${until}`;
  }
  if (from !== null) return `Drink from ${from}`;
  if (until !== null) return `Drink until ${until}`;
  return null;
}

/** '6 bottles', '1 bottle'. */
export const bottleCountLabel = (count: number) => `${count} ${count === 1 ? 'bottle' : 'bottles'}`;
