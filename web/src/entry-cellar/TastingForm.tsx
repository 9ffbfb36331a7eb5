import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { messageOf } from '../notes/notes.tsx';
import type { Tasting } from './api.ts';
import { today } from './days.ts';
import { TastingFields, type TastingDraft } from './TastingFields.tsx';

/**
 * A tasting's form: logging one (on opening a bottle, or on its own) or changing one. On the
 * entry's last bottle it also asks whether the entry stays in the cellar.
 */
export function TastingForm({
  tasting,
  intro,
  lastBottleOf,
  submitLabel,
  onSave,
  onCancel,
}: {
  /** The tasting being changed; a new one (dated today) without it. */
  tasting?: Tasting;
  /** What is being opened, above the fields. */
  intro?: ReactNode;
  /** The entry's name when this opens its last bottle: the form asks about the cellar. */
  lastBottleOf?: string;
  submitLabel: string;
  /** Sends it; rejects with the vault's refusal, shown above the buttons. */
  onSave: (draft: TastingDraft, keepInCellar: boolean | undefined) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<TastingDraft>(() => ({
    tastedOn: tasting?.tastedOn ?? today(),
    rating: tasting?.rating ?? null,
    notes: tasting?.notes ?? '',
    photo: null,
    removePhoto: false,
  }));
  const [keep, setKeep] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => formRef.current?.querySelector<HTMLElement>('input, textarea')?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (draft.tastedOn === '') {
      setError('Tasting date must be a date (YYYY-MM-DD)');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSave(draft, lastBottleOf === undefined ? undefined : keep);
    } catch (caught) {
      setError(messageOf(caught, 'The tasting could not be saved'));
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} className="cellar-form" onSubmit={submit} noValidate>
      {intro}
      <fieldset className="cellar-form__stack" disabled={busy}>
        <TastingFields
          draft={draft}
          onChange={setDraft}
          currentPhotoPath={tasting?.photoPath ?? null}
        />
        {lastBottleOf !== undefined && (
          <fieldset className="field cellar-form__question" aria-describedby={`${id}-last`}>
            <legend className="field__label">Keep it in the cellar?</legend>
            <p id={`${id}-last`} className="field__hint">
              This is the last bottle of {lastBottleOf}.
            </p>
            <label className="check">
              <input
                type="radio"
                name={`${id}-keep`}
                checked={keep}
                onChange={() => setKeep(true)}
              />
              <span className="check__text">Keep it in the cellar</span>
            </label>
            <label className="check">
              <input
                type="radio"
                name={`${id}-keep`}
                checked={!keep}
                onChange={() => setKeep(false)}
              />
              <span className="check__text">Take it out of the cellar</span>
            </label>
          </fieldset>
        )}
      </fieldset>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <div className="cellar-form__buttons">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
