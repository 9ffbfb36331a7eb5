import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { changeVisibility, setDefaultVisibility } from '../api/privacy.ts';
import { queryKeys } from '../api/query-keys.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser, useSession } from '../session/session.tsx';
import {
  VISIBILITIES,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
  type Visibility,
} from '../vault/visibility.ts';
import { ApproveFollowers } from './ApproveFollowers.tsx';
import { Panel, PanelError } from './Panel.tsx';
import type { BeverageType } from '../api/types.ts';
import { BEVERAGE_KINDS, BEVERAGE_TYPES } from '../beverages.ts';

export const DEFAULT_VISIBILITY_SAVED = 'Default visibility saved';

/** How many entries a change of all of them reached, as the note says it. */
export function changedMessage(count: number, visibility: Visibility): string {
  const entries = count === 1 ? '1 entry' : `${count} entries`;
  return count === 0
    ? `Every entry was already “${VISIBILITY_LABELS[visibility]}”`
    : `${entries} changed to “${VISIBILITY_LABELS[visibility]}”`;
}

function VisibilitySelect({
  id,
  value,
  onChange,
  disabled,
  describedBy,
}: {
  id: string;
  value: Visibility;
  onChange: (value: Visibility) => void;
  disabled: boolean;
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      className="field__input field__select"
      value={value}
      disabled={disabled}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value as Visibility)}
    >
      {VISIBILITIES.map((visibility) => (
        <option key={visibility} value={visibility}>
          {VISIBILITY_LABELS[visibility]}
        </option>
      ))}
    </select>
  );
}

/**
 * 'Privacy': whether followers need approval, who sees new entries by default (both saved at
 * once), and the same choice applied to every entry of the user's at once, after a
 * confirmation.
 */
export function PrivacySettings() {
  const user = useCurrentUser();
  const { setUser } = useSession();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forAll, setForAll] = useState<Visibility>(user.defaultVisibility);
  const [which, setWhich] = useState<BeverageType | ''>('');
  const [confirming, setConfirming] = useState(false);

  const saveDefault = async (visibility: Visibility) => {
    setBusy(true);
    setError(null);
    try {
      setUser(await setDefaultVisibility(visibility));
      notifySuccess(DEFAULT_VISIBILITY_SAVED);
    } catch (caught) {
      setError(messageOf(caught, 'The default could not be saved'));
    } finally {
      setBusy(false);
    }
  };

  const applyToAll = async () => {
    setBusy(true);
    setError(null);
    try {
      const count = await changeVisibility({
        visibility: forAll,
        all: which === '' ? {} : { type: which },
      });
      // Lists and cards show the new setting on their next read.
      await queryClient.invalidateQueries({ queryKey: queryKeys.beverages.all });
      notifySuccess(changedMessage(count, forAll));
      setConfirming(false);
    } catch (caught) {
      setError(messageOf(caught, 'Your entries could not be changed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel
      title="Privacy"
      intro="Who can see your entries. Admins of this vault can always see them, and people you share an entry with see that entry."
    >
      <ApproveFollowers />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-default`}>
          New entries are visible to
        </label>
        <VisibilitySelect
          id={`${id}-default`}
          value={user.defaultVisibility}
          onChange={(visibility) => void saveDefault(visibility)}
          disabled={busy}
          describedBy={`${id}-default-hint`}
        />
        <p id={`${id}-default-hint`} className="field__hint">
          {VISIBILITY_HINTS[user.defaultVisibility]} You can change it for each entry.
        </p>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-which`}>
          Entries to change
        </label>
        <select
          id={`${id}-which`}
          className="field__input field__select"
          value={which}
          disabled={busy}
          onChange={(event) => {
            setWhich(event.target.value as BeverageType | '');
            setConfirming(false);
          }}
        >
          <option value="">All my entries</option>
          {BEVERAGE_TYPES.map((type) => (
            <option key={type} value={type}>
              Only {BEVERAGE_KINDS[type].label.toLowerCase()}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-all`}>
          Change them to
        </label>
        <VisibilitySelect
          id={`${id}-all`}
          value={forAll}
          onChange={(visibility) => {
            setForAll(visibility);
            setConfirming(false);
          }}
          disabled={busy}
        />
      </div>
      {confirming ? (
        <div className="account-panel__actions" role="group" aria-label="Confirm the change">
          <p id={`${id}-confirm`}>
            Make{' '}
            {which === ''
              ? 'every entry'
              : `every ${BEVERAGE_KINDS[which].label.toLowerCase()} entry`}{' '}
            of yours “{VISIBILITY_LABELS[forAll]}”?
            {user.activityPubEnabled &&
              (forAll === 'PRIVATE'
                ? ' Your fediverse followers’ servers are told to remove them.'
                : ' Entries that were only yours are sent to your fediverse followers.')}
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setConfirming(false)}
            disabled={busy}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void applyToAll()}
            disabled={busy}
            aria-describedby={`${id}-confirm`}
          >
            {busy ? 'Changing…' : 'Yes, change them'}
          </button>
        </div>
      ) : (
        <p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setConfirming(true)}
            disabled={busy}
          >
            Apply to all my entries
          </button>
        </p>
      )}
      <PanelError message={error} />
    </Panel>
  );
}
