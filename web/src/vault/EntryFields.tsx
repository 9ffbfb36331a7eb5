import { useId } from 'react';
import { BEVERAGE_STATUSES } from '../../../contract/enums.ts';
import type { Dispatch, ReactNode, RefObject } from 'react';
import type { BeverageStatus, BeverageType } from '../api/types.ts';
import {
  BEVERAGE_KINDS,
  BEVERAGE_TYPES,
  MAKER_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  RATING_MAX,
  RATING_MIN,
  STATUS_LABELS,
} from '../beverages.ts';
import type { EntryAction, EntryDraft } from './entry-form.ts';
import { StarRating } from './StarRating.tsx';
import './entry-form.css';

interface EntryFieldsProps {
  draft: EntryDraft;
  dispatch: Dispatch<EntryAction>;
  /** 'Name is required', shown under the name. */
  nameError: string | null;
  nameRef: RefObject<HTMLInputElement | null>;
  /** The photo control (it differs between logging and editing). */
  photo: ReactNode;
  disabled?: boolean;
}

const STATUSES: readonly BeverageStatus[] = BEVERAGE_STATUSES;

/**
 * Every field of an entry, as the 'Log a new beverage' form and the edit dialog show them.
 * The rules live in entry-form.ts; this only draws the state and reports what the user did.
 */
export function EntryFields({
  draft,
  dispatch,
  nameError,
  nameRef,
  photo,
  disabled = false,
}: EntryFieldsProps) {
  const id = useId();
  const kind = BEVERAGE_KINDS[draft.type];
  const pending = draft.status === 'TO_TRY';
  const ids = {
    type: `${id}-type`,
    name: `${id}-name`,
    nameError: `${id}-name-error`,
    subtype: `${id}-subtype`,
    maker: `${id}-maker`,
    rating: `${id}-rating`,
    ratingValue: `${id}-rating-value`,
    notes: `${id}-notes`,
    cellar: `${id}-cellar`,
    drinkFrom: `${id}-drink-from`,
    drinkUntil: `${id}-drink-until`,
    window: `${id}-window`,
  };
  const groupsWithLabels = kind.groups.some((group) => group.label !== '');

  return (
    <fieldset className="entry-fields" disabled={disabled}>
      <div className="field">
        <label className="field__label" htmlFor={ids.type}>
          Type
        </label>
        <select
          id={ids.type}
          className="field__input field__select"
          value={draft.type}
          onChange={(event) => dispatch({ kind: 'type', type: event.target.value as BeverageType })}
        >
          {BEVERAGE_TYPES.map((type) => (
            <option key={type} value={type}>
              {BEVERAGE_KINDS[type].label}
            </option>
          ))}
        </select>
      </div>

      <div className="field entry-fields__name">
        <label className="field__label" htmlFor={ids.name}>
          Name
        </label>
        <input
          ref={nameRef}
          id={ids.name}
          className="field__input"
          value={draft.name}
          onChange={(event) => dispatch({ kind: 'text', field: 'name', value: event.target.value })}
          maxLength={NAME_MAX_LENGTH}
          autoComplete="off"
          aria-required="true"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? ids.nameError : undefined}
          placeholder={
            draft.type === 'WHISKEY'
              ? 'e.g. Buffalo Trace'
              : draft.type === 'WINE'
                ? 'e.g. Château Musar 2017'
                : 'e.g. Pliny the Elder'
          }
        />
        {nameError && (
          <p id={ids.nameError} role="alert" className="field__error">
            {nameError}
          </p>
        )}
      </div>

      <div className="field">
        <label className="field__label" htmlFor={ids.subtype}>
          Subtype
        </label>
        <select
          id={ids.subtype}
          className="field__input field__select"
          value={draft.subtype}
          onChange={(event) =>
            dispatch({ kind: 'text', field: 'subtype', value: event.target.value })
          }
        >
          {groupsWithLabels
            ? kind.groups.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.subtypes.map((subtype) => (
                    <option key={subtype} value={subtype}>
                      {subtype}
                    </option>
                  ))}
                </optgroup>
              ))
            : kind.groups
                .flatMap((group) => group.subtypes)
                .map((subtype) => (
                  <option key={subtype} value={subtype}>
                    {subtype}
                  </option>
                ))}
        </select>
      </div>

      <div className="field">
        <label className="field__label" htmlFor={ids.maker}>
          {kind.makerLabel}
        </label>
        <input
          id={ids.maker}
          className="field__input"
          value={draft.makerName}
          onChange={(event) =>
            dispatch({ kind: 'text', field: 'makerName', value: event.target.value })
          }
          maxLength={MAKER_MAX_LENGTH}
          autoComplete="off"
          placeholder="Optional"
        />
      </div>

      <fieldset className="field segmented-field">
        <legend className="field__label">Status</legend>
        <div className="segmented">
          {STATUSES.map((status) => (
            <label key={status} className="segmented__option">
              <input
                type="radio"
                name={`${id}-status`}
                value={status}
                checked={draft.status === status}
                onChange={() => dispatch({ kind: 'status', status })}
              />
              <span>{STATUS_LABELS[status]}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className={`field rating-field${pending ? ' is-pending' : ''}`}>
        <div className="rating-field__top">
          <label className="field__label" htmlFor={ids.rating}>
            Rating
          </label>
          <output id={ids.ratingValue} htmlFor={ids.rating} className="rating-field__value">
            {pending ? (
              <StarRating rating={0} pending />
            ) : (
              <>
                <StarRating rating={draft.rating} />
                <span className="rating-field__number">
                  {draft.rating}/{RATING_MAX}
                </span>
              </>
            )}
          </output>
        </div>
        <input
          id={ids.rating}
          type="range"
          className="rating-field__slider"
          min={RATING_MIN}
          max={RATING_MAX}
          step={1}
          value={pending ? 0 : draft.rating}
          disabled={pending}
          aria-valuetext={pending ? 'Pending' : `${draft.rating} out of ${RATING_MAX}`}
          onChange={(event) => dispatch({ kind: 'rating', rating: Number(event.target.value) })}
        />
      </div>

      <div className="field entry-fields__notes">
        <label className="field__label" htmlFor={ids.notes}>
          Notes
        </label>
        <textarea
          id={ids.notes}
          className="field__input field__textarea"
          value={draft.notes}
          onChange={(event) =>
            dispatch({ kind: 'text', field: 'notes', value: event.target.value })
          }
          maxLength={NOTES_MAX_LENGTH}
          rows={3}
          placeholder="Nose, palate, finish, where you had it…"
        />
      </div>

      <div className="entry-fields__photo">{photo}</div>

      <div className="entry-fields__cellar">
        <label className="check" htmlFor={ids.cellar}>
          <input
            id={ids.cellar}
            type="checkbox"
            checked={draft.inCellar}
            onChange={(event) => dispatch({ kind: 'cellar', inCellar: event.target.checked })}
            aria-describedby={`${ids.cellar}-hint`}
          />
          <span className="check__text">In cellar</span>
        </label>
        <p id={`${ids.cellar}-hint`} className="field__hint">
          A bottle you keep at home. It shows in your cellar.
        </p>
      </div>

      <fieldset className="field entry-fields__window" aria-describedby={`${ids.window}-hint`}>
        <legend className="field__label">Drinking window</legend>
        <div className="entry-fields__years">
          {(
            [
              ['drinkFrom', ids.drinkFrom, 'From year'],
              ['drinkUntil', ids.drinkUntil, 'Until year'],
            ] as const
          ).map(([field, fieldId, label]) => (
            <div key={field} className="field">
              <label className="field__hint" htmlFor={fieldId}>
                {label}
              </label>
              <input
                id={fieldId}
                className="field__input"
                inputMode="numeric"
                pattern="[0-9]{4}"
                maxLength={4}
                autoComplete="off"
                placeholder="Year"
                value={draft[field]}
                onChange={(event) => dispatch({ kind: 'text', field, value: event.target.value })}
              />
            </div>
          ))}
        </div>
        <p id={`${ids.window}-hint`} className="field__hint">
          The years it is best to drink. Leave either empty.
        </p>
      </fieldset>
    </fieldset>
  );
}
