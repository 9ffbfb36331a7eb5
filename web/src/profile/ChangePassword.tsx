import { useState } from 'react';
import type { FormEvent } from 'react';
import { changePassword } from '../api/profile.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useSession } from '../session/session.tsx';
import { Field } from '../ui/Field.tsx';
import { Panel, PanelError } from './Panel.tsx';
import { passwordChangeError } from './rules.ts';

export const PASSWORD_UPDATED = 'Password updated';

/**
 * Current, new and confirmation. The product's rules are checked here first (nothing is
 * sent while one fails); the server checks the current password and ends the other sessions.
 */
export function ChangePassword({ onChanged }: { onChanged: () => void }) {
  const { setUser } = useSession();
  const { notifySuccess } = useNotes();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = passwordChangeError(current, next, confirmation);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      setUser(await changePassword(current, next));
      setCurrent('');
      setNext('');
      setConfirmation('');
      notifySuccess(PASSWORD_UPDATED);
      onChanged();
    } catch (caught) {
      setError(messageOf(caught, 'Failed to update password'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel
      title="Change password"
      intro="Changing it signs you out everywhere else; this browser stays signed in. Access tokens keep working: revoke them in Access tokens."
    >
      <form className="stack" onSubmit={submit} noValidate>
        <Field
          label="Current password"
          type="password"
          name="currentPassword"
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          autoComplete="current-password"
        />
        <Field
          label="New password"
          type="password"
          name="newPassword"
          value={next}
          onChange={(event) => setNext(event.target.value)}
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        <Field
          label="Confirm new password"
          type="password"
          name="confirmPassword"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          autoComplete="new-password"
        />
        <PanelError message={error} />
        <div className="account-panel__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Updating…' : 'Update password'}
          </button>
        </div>
      </form>
    </Panel>
  );
}
