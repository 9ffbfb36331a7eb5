import { useEffect, useId, useRef, useState } from 'react';
import type { User } from '../api/types.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { isImageFile } from '../ui/images.ts';
import { AVATAR_NOT_IMAGE } from './rules.ts';

interface AvatarInputProps {
  user: Pick<User, 'fullName' | 'username' | 'avatarPath'>;
  /** The chosen image, if any. */
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** The stored avatar is to be removed on save. */
  removed: boolean;
  onRemovedChange: (removed: boolean) => void;
  /** Changes after every save, to empty the file input. */
  resetKey: number;
}

/** Choose an avatar (images only, checked before anything is sent), preview it, remove it. */
export function AvatarInput({
  user,
  file,
  onFileChange,
  removed,
  onRemovedChange,
  resetKey,
}: AvatarInputProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreviewUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    if (inputRef.current) inputRef.current.value = '';
    setError(null);
  }, [resetKey]);

  const choose = (chosen: File | null) => {
    if (chosen && !isImageFile(chosen)) {
      setError(AVATAR_NOT_IMAGE);
      if (inputRef.current) inputRef.current.value = '';
      onFileChange(null);
      return;
    }
    setError(null);
    onFileChange(chosen);
    if (chosen) onRemovedChange(false);
  };

  const clearChoice = () => {
    if (inputRef.current) inputRef.current.value = '';
    onFileChange(null);
  };

  const stored = user.avatarPath && !removed ? user.avatarPath : null;

  return (
    <div className="field avatar-input">
      <label className="field__label" htmlFor={inputId}>
        Avatar
      </label>
      <div className="avatar-input__row">
        <div className="avatar-input__preview">
          {previewUrl ? (
            <img
              className="avatar avatar--large"
              src={previewUrl}
              alt="Preview of the new avatar"
            />
          ) : (
            <Avatar user={{ ...user, avatarPath: stored }} size="large" />
          )}
        </div>
        <div className="avatar-input__controls">
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept="image/*"
            className="photo-input__file"
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
          />
          <p id={hintId} className="field__hint">
            {file
              ? `New avatar: ${file.name}`
              : removed
                ? 'The avatar will be removed when you save.'
                : 'JPEG, PNG, WebP or AVIF. It is cropped to a circle.'}
          </p>
          <div className="photo-input__actions">
            {file && (
              <button type="button" className="button button--link" onClick={clearChoice}>
                {user.avatarPath ? 'Keep the current avatar' : 'Clear avatar'}
              </button>
            )}
            {user.avatarPath && !file && (
              <button
                type="button"
                className="button button--link"
                onClick={() => onRemovedChange(!removed)}
              >
                {removed ? 'Keep avatar' : 'Remove avatar'}
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
