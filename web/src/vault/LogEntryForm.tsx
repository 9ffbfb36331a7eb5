import { useId, useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { photoOf } from '../api/client.ts';
import { KEPT_ON_DEVICE, sendOrQueue } from '../offline/send-or-queue.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { createFormData, entryReducer, newDraft, validateDraft } from './entry-form.ts';
import { EntryFields } from './EntryFields.tsx';
import { PhotoInput } from './PhotoInput.tsx';
import { useVault } from './VaultProvider.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { VisibilityField } from './VisibilityField.tsx';
import { withVisibility, type VisibilitySetting } from './visibility.ts';
import './entry-form.css';

export const BEVERAGE_LOGGED = 'Beverage logged successfully';

/** The dashboard's 'Log a new beverage' form. */
export function LogEntryForm() {
  const { publish } = useVault();
  const { notifySuccess } = useNotes();
  const [draft, dispatch] = useReducer(entryReducer, undefined, () => newDraft());
  const [photo, setPhoto] = useState<File | null>(null);
  const user = useCurrentUser();
  // The user's default; kept after a save, like the type.
  const [setting, setSetting] = useState<VisibilitySetting>(() => ({
    visibility: user.defaultVisibility,
    federated: true,
  }));
  const [resetKey, setResetKey] = useState(0);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const titleId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateDraft(draft);
    setNameError(invalid);
    setError(null);
    if (invalid) {
      nameRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const form = withVisibility(
        createFormData(draft, photo),
        setting,
        { visibility: user.defaultVisibility, federated: true },
        user.activityPubEnabled,
      );
      // Without a connection (a cellar in the basement) it is kept and sent later.
      const sent = await sendOrQueue(
        'POST /beverages',
        { form, trackUpload: photoOf(form) },
        `Log ${draft.name.trim()}`,
      );
      if (!sent.queued) publish({ kind: 'saved', entry: sent.answer.beverage });
      dispatch({ kind: 'saved' });
      setPhoto(null);
      setResetKey((key) => key + 1);
      notifySuccess(sent.queued ? KEPT_ON_DEVICE : BEVERAGE_LOGGED);
      nameRef.current?.focus();
    } catch (caught) {
      setError(messageOf(caught, 'The beverage could not be logged'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel log-form" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title">
        Log a new beverage
      </h2>
      <form onSubmit={submit} noValidate className="log-form__form">
        <EntryFields
          draft={draft}
          dispatch={(action) => {
            if (action.kind === 'type' || (action.kind === 'text' && action.field === 'name')) {
              setNameError(null);
            }
            dispatch(action);
          }}
          nameError={nameError}
          nameRef={nameRef}
          photo={<PhotoInput file={photo} onFileChange={setPhoto} resetKey={resetKey} />}
        />
        <VisibilityField
          value={setting}
          onChange={setSetting}
          offersFediverse={user.activityPubEnabled}
          disabled={busy}
        />
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <div className="log-form__actions">
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {busy ? 'Logging…' : 'Log beverage'}
          </button>
        </div>
      </form>
    </section>
  );
}
