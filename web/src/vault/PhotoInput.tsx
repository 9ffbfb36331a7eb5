import { CameraIcon, CloseIcon } from '../ui/icons.tsx';
import { PHOTO_NOT_IMAGE } from '../ui/images.ts';
import { useImageFileInput } from '../ui/useImageFileInput.ts';
import './entry-form.css';

interface PhotoInputProps {
  /** The chosen file, if any. */
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** The entry's stored photo (edit dialog). */
  currentPath?: string | null;
  /** The stored photo is to be removed on save. */
  removed?: boolean;
  onRemovedChange?: (removed: boolean) => void;
  /** Changes whenever the form is reset, to empty the file input. */
  resetKey?: number;
}

/**
 * A bottle photo: choose a file (images only, checked here before anything is sent), see it,
 * and in the edit dialog replace or remove the stored one.
 */
export function PhotoInput({
  file,
  onFileChange,
  currentPath = null,
  removed = false,
  onRemovedChange,
  resetKey = 0,
}: PhotoInputProps) {
  const { inputId, hintId, errorId, error, previewUrl, clear, inputProps } = useImageFileInput({
    file,
    onFileChange,
    resetKey,
    notImageMessage: PHOTO_NOT_IMAGE,
  });

  const shown = previewUrl ?? (currentPath && !removed ? `/${currentPath}` : null);
  const label = currentPath ? 'Replace photo' : 'Photo';

  return (
    <div className="field photo-input">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="photo-input__row">
        <div className="photo-input__preview" aria-hidden="true">
          {shown ? <img src={shown} alt="" /> : <CameraIcon />}
        </div>
        <div className="photo-input__controls">
          <input {...inputProps} />
          <p id={hintId} className="field__hint">
            {file
              ? `New photo: ${file.name}`
              : removed
                ? 'The photo will be removed when you save.'
                : 'JPEG, PNG, WebP or AVIF.'}
          </p>
          <div className="photo-input__actions">
            {file && (
              <button type="button" className="button button--link" onClick={clear}>
                {currentPath ? 'Keep the current photo' : 'Clear photo'}
              </button>
            )}
            {currentPath && !file && onRemovedChange && (
              <button
                type="button"
                className="button button--link"
                onClick={() => onRemovedChange(!removed)}
              >
                {removed ? (
                  'Keep photo'
                ) : (
                  <>
                    <CloseIcon />
                    Remove photo
                  </>
                )}
              </button>
            )}
          </div>
          {error && (
            <p id={errorId} role="alert" className="field__error">
              {error}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
