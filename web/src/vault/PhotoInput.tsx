import { useState, useSyncExternalStore } from 'react';
import { currentUploadProgress, subscribeUploadProgress } from '../api/upload-progress.ts';
import { downscalePhoto } from '../pwa/downscale.ts';
import { formatBytes } from '../pwa/photo-size.ts';
import { CameraIcon, CloseIcon } from '../ui/icons.tsx';
import { PHOTO_NOT_IMAGE } from '../ui/images.ts';
import { FileButton } from '../ui/FileButton.tsx';
import { useImageFileInput } from '../ui/useImageFileInput.ts';
import './entry-form.css';
import './photo-input.css';

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

/** What the browser did to the chosen photo before sending it. */
interface Resize {
  file: File;
  width: number;
  height: number;
  originalBytes: number;
}

/**
 * A bottle photo: one button to take it with a phone's camera or choose a file (images only,
 * checked here before anything is sent), made smaller in the browser (pwa/downscale.ts), see it, follow its upload,
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
  const [resize, setResize] = useState<Resize | null>(null);
  const { inputId, hintId, errorId, error, previewUrl, preparing, clear, inputProps } =
    useImageFileInput({
      file,
      onFileChange,
      resetKey,
      notImageMessage: PHOTO_NOT_IMAGE,
      prepare: async (chosen) => {
        const result = await downscalePhoto(chosen);
        if (result.resized && result.width && result.height) {
          setResize({
            file: result.file,
            width: result.width,
            height: result.height,
            originalBytes: chosen.size,
          });
        }
        return result.file;
      },
    });
  const upload = useSyncExternalStore(subscribeUploadProgress, currentUploadProgress);
  const uploading = file !== null && upload?.file === file ? upload : null;
  const percent = uploading
    ? Math.min(100, Math.round((uploading.loaded / Math.max(1, uploading.total)) * 100))
    : 0;

  const shown = previewUrl ?? (currentPath && !removed ? `/${currentPath}` : null);
  const label = currentPath ? 'Replace photo' : 'Photo';
  const resized = file && resize?.file === file ? resize : null;

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
          <FileButton inputProps={inputProps} icon={<CameraIcon />}>
            Take or choose a photo
          </FileButton>
          <p id={hintId} className="field__hint">
            {file
              ? preparing
                ? `New photo: ${file.name}. Making it smaller…`
                : resized
                  ? `New photo: ${file.name}, resized to ${resized.width} × ${resized.height} (${formatBytes(file.size)}, was ${formatBytes(resized.originalBytes)}).`
                  : `New photo: ${file.name}`
              : removed
                ? 'The photo will be removed when you save.'
                : 'JPEG, PNG, WebP or AVIF.'}
          </p>
          {uploading && (
            <div className="photo-input__upload">
              <progress
                className="photo-input__progress"
                max={100}
                value={percent}
                aria-label="Photo upload"
              />
              <span className="photo-input__upload-text" aria-live="polite">
                Uploading photo… {percent}%
              </span>
            </div>
          )}
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
