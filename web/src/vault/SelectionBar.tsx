import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { changeVisibilityOf } from '../api/privacy.ts';
import { queryKeys } from '../api/query-keys.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { selectedLabel, selectionChangedMessage, selectionProblem } from './selection.ts';
import type { Selection } from './useSelection.ts';
import {
  VISIBILITIES,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
  type Visibility,
} from './visibility.ts';
import './selection.css';

/**
 * 'Select' on an archive screen, and once on, the bar that changes the picked entries at once:
 * 'N selected', 'Select all on this page', who can see them and, for a user who federates,
 * whether they go to the fediverse. After a change the lists are fetched again, a note says how
 * many entries changed, and the selection is cleared.
 */
export function SelectionBar({ selection }: { selection: Selection }) {
  const user = useCurrentUser();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const id = useId();
  // 'Only me' first: a change made by mistake then hides entries rather than showing them.
  const [visibility, setVisibility] = useState<Visibility>('PRIVATE');
  const [federated, setFederated] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const { active, ids } = selection;
  if (!active && selection.selectableCount === 0) return null;
  const count = ids.length;
  const problem = selectionProblem(count);
  const offersFediverse = user.activityPubEnabled && visibility !== 'PRIVATE';
  // What remote servers are told, in the words of the profile's Privacy panel.
  const fediverseNote = !user.activityPubEnabled
    ? null
    : visibility === 'PRIVATE' || !federated
      ? ' Your fediverse followers’ servers are told to remove them.'
      : ' Entries that were only yours are sent to your fediverse followers.';

  const apply = async () => {
    if (busy || problem !== null) return;
    setBusy(true);
    setError(null);
    try {
      const updated = await changeVisibilityOf(ids, {
        visibility,
        ...(offersFediverse && { federated }),
      });
      // Every list shows the new setting on its next read (the cards' 'Only me' tag).
      await queryClient.invalidateQueries({ queryKey: queryKeys.beverages.all });
      notifySuccess(selectionChangedMessage(updated, count, VISIBILITY_LABELS[visibility]));
      selection.clear();
    } catch (caught) {
      setError(messageOf(caught, 'The selected entries could not be changed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      className={`selection-bar${active ? ' selection-bar--active' : ''}`}
      role={active ? 'region' : undefined}
      aria-label={active ? 'Selected entries' : undefined}
    >
      <div className="selection-bar__row">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            selection.setActive(!active);
            setError(null);
          }}
        >
          {active ? 'Done' : 'Select'}
        </button>
        {active && (
          <>
            <p className="selection-bar__count" aria-live="polite">
              {selectedLabel(count)}
            </p>
            <button
              type="button"
              className="button button--secondary"
              onClick={selection.selectAll}
            >
              Select all on this page
            </button>
            {count > 0 && (
              <button type="button" className="button button--secondary" onClick={selection.clear}>
                Clear selection
              </button>
            )}
          </>
        )}
      </div>
      {active && (
        <div className="selection-bar__row selection-bar__apply">
          <div className="selection-bar__field">
            <label className="field__label" htmlFor={`${id}-visibility`}>
              Who can see them
            </label>
            <select
              id={`${id}-visibility`}
              className="field__input field__select"
              value={visibility}
              aria-describedby={`${id}-hint`}
              onChange={(event) => {
                const next = event.target.value as Visibility;
                // Leaving 'Only me' sends them to the fediverse again unless unticked.
                if (visibility === 'PRIVATE') setFederated(true);
                setVisibility(next);
              }}
            >
              {VISIBILITIES.map((level) => (
                <option key={level} value={level}>
                  {VISIBILITY_LABELS[level]}
                </option>
              ))}
            </select>
          </div>
          {offersFediverse && (
            <label className="check selection-bar__check" htmlFor={`${id}-federated`}>
              <input
                id={`${id}-federated`}
                type="checkbox"
                checked={federated}
                onChange={(event) => setFederated(event.target.checked)}
              />
              <span className="check__text">Also send to my fediverse followers</span>
            </label>
          )}
          <button
            type="button"
            className="button button--primary"
            aria-disabled={busy || problem !== null}
            aria-describedby={`${id}-hint`}
            onClick={() => void apply()}
          >
            {busy ? 'Changing…' : 'Apply to selected'}
          </button>
          <p id={`${id}-hint`} className="field__hint selection-bar__hint">
            {problem ?? VISIBILITY_HINTS[visibility]}
            {problem === null && fediverseNote}
          </p>
          {error && (
            <p role="alert" className="form-error selection-bar__hint">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
