import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import {
  BOTTLE_MAX_QUANTITY,
  BOTTLE_NOTE_MAX_LENGTH,
  COMMON_BOTTLE_SIZES,
} from '../../../contract/cellar-limits.ts';
import type { Beverage } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import type { Bottle, Place } from './api.ts';
import {
  OTHER_SIZE,
  bottleDraft,
  bottleJson,
  hasVintage,
  placeLabel,
  sizeLabel,
  type BottleDraft,
} from './bottle-form.ts';
import type { BottleInput } from './api.ts';

/**
 * Adding a bottle line to an entry, or changing one: quantity, size (the common ones, or any
 * in ml), vintage (wine and whiskey), place, purchase date, price with currency, and a note.
 */
export function BottleForm({
  entry,
  bottle,
  places,
  onSave,
  onCancel,
}: {
  entry: Beverage;
  bottle?: Bottle;
  places: Place[];
  /** Sends the line; rejects with the vault's refusal, shown above the buttons. */
  onSave: (json: BottleInput) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<BottleDraft>(() => bottleDraft(bottle));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (change: Partial<BottleDraft>) => setDraft((current) => ({ ...current, ...change }));
  const field = (name: keyof BottleDraft) => ({
    id: `${id}-${name}`,
    className: 'field__input',
    value: draft[name],
    onChange: (event: { target: { value: string } }) => set({ [name]: event.target.value }),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const result = bottleJson(draft, entry.type);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSave(result.json);
    } catch (caught) {
      setError(messageOf(caught, 'The bottles could not be saved'));
      setBusy(false);
    }
  };

  return (
    <form className="cellar-form" onSubmit={submit} noValidate>
      <fieldset className="cellar-form__grid" disabled={busy}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-quantity`}>
            Quantity
          </label>
          <input
            ref={first}
            {...field('quantity')}
            inputMode="numeric"
            type="number"
            min={1}
            max={BOTTLE_MAX_QUANTITY}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-size`}>
            Size
          </label>
          <select {...field('size')} className="field__input field__select">
            {COMMON_BOTTLE_SIZES.map((ml) => (
              <option key={ml} value={String(ml)}>
                {sizeLabel(ml)}
              </option>
            ))}
            <option value={OTHER_SIZE}>Another size</option>
          </select>
        </div>
        {draft.size === OTHER_SIZE && (
          <div className="field">
            <label className="field__label" htmlFor={`${id}-otherSize`}>
              Size in ml
            </label>
            <input {...field('otherSize')} inputMode="numeric" autoComplete="off" />
          </div>
        )}
        {hasVintage(entry.type) && (
          <div className="field">
            <label className="field__label" htmlFor={`${id}-vintage`}>
              Vintage
            </label>
            <input
              {...field('vintage')}
              inputMode="numeric"
              maxLength={4}
              autoComplete="off"
              placeholder="Optional"
            />
          </div>
        )}
        <div className="field cellar-form__wide">
          <label className="field__label" htmlFor={`${id}-placeId`}>
            Place
          </label>
          <select {...field('placeId')} className="field__input field__select">
            <option value="">No place</option>
            {places.map((place) => (
              <option key={place.id} value={String(place.id)}>
                {placeLabel(place.path)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-purchasedOn`}>
            Purchase date
          </label>
          <input {...field('purchasedOn')} type="date" />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-price`}>
            Price of one bottle
          </label>
          <input
            {...field('price')}
            inputMode="decimal"
            autoComplete="off"
            placeholder="Optional"
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-currency`}>
            Currency
          </label>
          <input
            {...field('currency')}
            maxLength={3}
            autoComplete="off"
            autoCapitalize="characters"
            placeholder="EUR"
          />
        </div>
        <div className="field cellar-form__wide">
          <label className="field__label" htmlFor={`${id}-note`}>
            Bottle note
          </label>
          <textarea
            {...field('note')}
            className="field__input field__textarea"
            rows={2}
            maxLength={BOTTLE_NOTE_MAX_LENGTH}
            placeholder="Where you bought them, a gift…"
          />
        </div>
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
          {bottle ? 'Save bottles' : 'Add bottles'}
        </button>
      </div>
    </form>
  );
}
