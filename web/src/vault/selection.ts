/**
 * The archive's 'Select' mode, as plain data (no React, unit-tested): how many entries one
 * change takes, and what the note says once it is made.
 */

/**
 * How many entries one change takes: PATCH /beverages/visibility's bound (MAX_VISIBILITY_IDS
 * in contract/beverages.ts, which the client does not import at run time, as it brings zod).
 */
export const MAX_SELECTED = 1000;

/** 'N selected', as the bar says it. */
export const selectedLabel = (count: number): string => `${count} selected`;

/** Why 'Apply' does nothing yet, or null when it can apply. */
export function selectionProblem(count: number): string | null {
  if (count === 0) return 'Tick the entries to change.';
  if (count > MAX_SELECTED) {
    return `Choose at most ${MAX_SELECTED} entries at once, or change them all under Privacy on your profile.`;
  }
  return null;
}

/** The note after a change: how many of the selected entries changed, and to what. */
export function selectionChangedMessage(updated: number, selected: number, label: string): string {
  if (updated === 0) {
    return selected === 1
      ? `The selected entry was already “${label}”`
      : `The selected entries were already “${label}”`;
  }
  const entries = updated === 1 ? '1 entry' : `${updated} entries`;
  return `${entries} changed to “${label}”`;
}
