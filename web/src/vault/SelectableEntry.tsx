import type { MouseEvent, ReactNode } from 'react';
import { useId } from 'react';
import type { Beverage } from '../api/types.ts';
import type { EntrySelectionControl } from './useSelection.ts';
import './selection.css';

/**
 * An entry card in 'Select' mode: a checkbox named for the entry beside it (a 44 px target),
 * and a click on the card itself ticks it instead of opening the editor. The card's own
 * buttons keep doing what they do.
 */
export function SelectableEntry({
  entry,
  selection,
  children,
}: {
  entry: Beverage;
  selection: EntrySelectionControl;
  children: ReactNode;
}) {
  const id = useId();
  const selected = selection.isSelected(entry.id);

  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('button, a, input, label, select')) return;
    if (window.getSelection()?.toString()) return;
    event.stopPropagation();
    selection.toggle(entry.id);
  };

  return (
    <div className={`selectable-entry${selected ? ' selectable-entry--selected' : ''}`}>
      <label className="selectable-entry__check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={selected}
          onChange={() => selection.toggle(entry.id)}
        />
        <span className="visually-hidden">Select {entry.name}</span>
      </label>
      <div className="selectable-entry__card" onClickCapture={onCardClick}>
        {children}
      </div>
    </div>
  );
}
