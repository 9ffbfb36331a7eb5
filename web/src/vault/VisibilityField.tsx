import { useId } from 'react';
import {
  VISIBILITIES,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
  type Visibility,
  type VisibilitySetting,
} from './visibility.ts';

interface VisibilityFieldProps {
  value: VisibilitySetting;
  onChange: (value: VisibilitySetting) => void;
  /** Whether to offer 'Also send to my fediverse followers' (the user federates). */
  offersFediverse: boolean;
  disabled?: boolean;
}

/** 'Who can see it' for an entry, and whether it goes to the fediverse. */
export function VisibilityField({
  value,
  onChange,
  offersFediverse,
  disabled = false,
}: VisibilityFieldProps) {
  const id = useId();
  const showFediverse = offersFediverse && value.visibility !== 'PRIVATE';
  return (
    <div className="field visibility-field">
      <label className="field__label" htmlFor={`${id}-visibility`}>
        Who can see it
      </label>
      <select
        id={`${id}-visibility`}
        className="field__input field__select"
        value={value.visibility}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const visibility = event.target.value as Visibility;
          // Leaving 'Only me' sends it to the fediverse again unless unticked.
          const federated = value.visibility === 'PRIVATE' ? true : value.federated;
          onChange({ visibility, federated });
        }}
      >
        {VISIBILITIES.map((visibility) => (
          <option key={visibility} value={visibility}>
            {VISIBILITY_LABELS[visibility]}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="field__hint">
        {VISIBILITY_HINTS[value.visibility]}
      </p>
      {showFediverse && (
        <label className="check" htmlFor={`${id}-federated`}>
          <input
            id={`${id}-federated`}
            type="checkbox"
            checked={value.federated}
            disabled={disabled}
            onChange={(event) => onChange({ ...value, federated: event.target.checked })}
          />
          <span className="check__text">Also send to my fediverse followers</span>
        </label>
      )}
    </div>
  );
}
