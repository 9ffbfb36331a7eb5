import { useCallback, useMemo, useState } from 'react';
import type { Beverage } from '../api/types.ts';

/** What a list needs to show a checkbox on each entry (EntryList's `selection`). */
export interface EntrySelectionControl {
  /** Only the user's own entries can be picked (shared ones are someone else's). */
  canSelect: (entry: Beverage) => boolean;
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
}

export interface Selection extends EntrySelectionControl {
  /** Whether the screen is in 'Select' mode. */
  active: boolean;
  setActive: (active: boolean) => void;
  /** The ids picked that are still on screen, in list order. */
  ids: number[];
  /** How many of the entries on screen can be picked. */
  selectableCount: number;
  /** Picks every entry on screen that can be picked. */
  selectAll: () => void;
  clear: () => void;
}

const canSelect = (entry: Beverage): boolean => entry.isOwner;

/**
 * The entries picked on a screen, out of `entries` (what its lists show now). An entry that
 * leaves the lists (deleted, moved) leaves the selection with it, so a change never names an
 * entry the user no longer sees. Leaving 'Select' mode forgets the selection.
 */
export function useSelection(entries: readonly Beverage[]): Selection {
  const [active, setActiveState] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<number>>(() => new Set());

  const selectable = useMemo(() => entries.filter(canSelect), [entries]);
  const ids = useMemo(
    () => selectable.filter((entry) => picked.has(entry.id)).map((entry) => entry.id),
    [selectable, picked],
  );
  const chosen = useMemo(() => new Set(ids), [ids]);

  const toggle = useCallback((id: number) => {
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const clear = useCallback(() => setPicked(new Set()), []);
  const setActive = useCallback((on: boolean) => {
    setActiveState(on);
    if (!on) setPicked(new Set());
  }, []);

  return {
    active,
    setActive,
    ids,
    selectableCount: selectable.length,
    canSelect,
    isSelected: (id) => chosen.has(id),
    toggle,
    selectAll: () => setPicked(new Set(selectable.map((entry) => entry.id))),
    clear,
  };
}
