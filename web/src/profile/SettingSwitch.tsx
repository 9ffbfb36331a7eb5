import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { User } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useSession } from '../session/session.tsx';
import { PanelError } from './Panel.tsx';

/**
 * A setting of the profile saved the moment it is switched: a labelled switch, what it means
 * now (`hint`, the switch's description), and the server's refusal below it. `save` sends the
 * new value and answers the changed user, who becomes the session's user.
 */
export function SettingSwitch({
  label,
  checked,
  save,
  saved,
  failure,
  afterSave,
  className = 'field',
  hint,
}: {
  label: string;
  checked: boolean;
  save: (enabled: boolean) => Promise<User>;
  /** The note shown once it is saved. */
  saved: string;
  /** The message when the server's answer gives none. */
  failure: string;
  afterSave?: () => void;
  className?: string;
  hint: (hintId: string) => ReactNode;
}) {
  const { setUser } = useSession();
  const { notifySuccess } = useNotes();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();

  const toggle = async (enabled: boolean) => {
    setBusy(true);
    setError(null);
    try {
      setUser(await save(enabled));
      notifySuccess(saved);
      afterSave?.();
    } catch (caught) {
      setError(messageOf(caught, failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={className}>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          className="switch__input"
          checked={checked}
          onChange={(event) => void toggle(event.target.checked)}
          disabled={busy}
          aria-describedby={hintId}
        />
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        <span className="switch__label">{label}</span>
      </label>
      {hint(hintId)}
      <PanelError message={error} />
    </div>
  );
}
