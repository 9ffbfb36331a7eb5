import { useId } from 'react';
import { NOTES_MAX_LENGTH, RATING_MAX } from '../beverages.ts';
import { PhotoInput } from '../vault/PhotoInput.tsx';

export interface TastingDraft {
  tastedOn: string;
  /** 1 to 5, or null when not rated. */
  rating: number | null;
  notes: string;
  photo: File | null;
  /** The stored photo is to be taken away (a change). */
  removePhoto: boolean;
}

const RATINGS = [null, 1, 2, 3, 4, 5] as const;

/** A tasting's fields: the day, a rating from 1 to 5 or none, notes, and a photo. */
export function TastingFields({
  draft,
  onChange,
  currentPhotoPath = null,
}: {
  draft: TastingDraft;
  onChange: (draft: TastingDraft) => void;
  currentPhotoPath?: string | null;
}) {
  const id = useId();
  const set = (change: Partial<TastingDraft>) => onChange({ ...draft, ...change });
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-day`}>
          Tasting date
        </label>
        <input
          id={`${id}-day`}
          type="date"
          className="field__input"
          required
          value={draft.tastedOn}
          onChange={(event) => set({ tastedOn: event.target.value })}
        />
      </div>
      <fieldset className="field tasting-rating">
        <legend className="field__label">Rating</legend>
        <div className="tasting-rating__options">
          {RATINGS.map((rating) => (
            <label key={rating ?? 'none'} className="tasting-rating__option">
              <input
                type="radio"
                name={`${id}-rating`}
                checked={draft.rating === rating}
                onChange={() => set({ rating })}
              />
              {rating === null ? (
                <span>None</span>
              ) : (
                <span>
                  {rating}
                  <span aria-hidden="true">★</span>
                  <span className="visually-hidden"> out of {RATING_MAX}</span>
                </span>
              )}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-notes`}>
          Tasting notes
        </label>
        <textarea
          id={`${id}-notes`}
          className="field__input field__textarea"
          rows={3}
          maxLength={NOTES_MAX_LENGTH}
          value={draft.notes}
          placeholder="How it tasted this time"
          onChange={(event) => set({ notes: event.target.value })}
        />
      </div>
      <PhotoInput
        file={draft.photo}
        onFileChange={(photo) => set({ photo })}
        currentPath={currentPhotoPath}
        removed={draft.removePhoto}
        onRemovedChange={(removePhoto) => set({ removePhoto })}
      />
    </>
  );
}
