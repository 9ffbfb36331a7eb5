import { useId, useState } from 'react';
import { createFormData, newDraft } from './entry-form.ts';
import { EntryFields } from './EntryFields.tsx';
import { PhotoInput } from './PhotoInput.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { useEntryForm } from './useEntryForm.ts';
import { VisibilityField } from './VisibilityField.tsx';
import './entry-form.css';

export const BEVERAGE_LOGGED = 'Beverage logged successfully';

/** The dashboard's 'Log a new beverage' form. */
export function LogEntryForm() {
  const user = useCurrentUser();
  const [resetKey, setResetKey] = useState(0);
  const titleId = useId();
  // Without a connection (a cellar in the basement) it is kept and sent later.
  const form = useEntryForm({
    initial: () => newDraft(),
    // The user's default; kept after a save, like the type.
    visibility: { visibility: user.defaultVisibility, federated: true },
    offersFediverse: user.activityPubEnabled,
    formData: (draft) => createFormData(draft, form.photo),
    saved: BEVERAGE_LOGGED,
    failed: 'The beverage could not be logged',
    done: () => {
      form.dispatch({ kind: 'saved' });
      form.setPhoto(null);
      setResetKey((key) => key + 1);
      form.nameRef.current?.focus();
    },
  });

  return (
    <section className="panel log-form" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title">
        Log a new beverage
      </h2>
      <form onSubmit={form.submit} noValidate className="log-form__form">
        <EntryFields
          draft={form.draft}
          dispatch={form.edit}
          nameError={form.nameError}
          nameRef={form.nameRef}
          photo={<PhotoInput file={form.photo} onFileChange={form.setPhoto} resetKey={resetKey} />}
        />
        <VisibilityField
          value={form.setting}
          onChange={form.setSetting}
          offersFediverse={user.activityPubEnabled}
          disabled={form.busy}
        />
        {form.error && (
          <p role="alert" className="form-error">
            {form.error}
          </p>
        )}
        <div className="log-form__actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={form.busy}
            aria-busy={form.busy}
          >
            {form.busy ? 'Logging…' : 'Log beverage'}
          </button>
        </div>
      </form>
    </section>
  );
}
