import type { User } from '../api/types.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { FileButton } from '../ui/FileButton.tsx';
import { useImageFileInput } from '../ui/useImageFileInput.ts';
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
  const { inputId, hintId, errorId, error, previewUrl, clear, inputProps } = useImageFileInput({
    file,
    onFileChange: (chosen) => {
      onFileChange(chosen);
      if (chosen) onRemovedChange(false);
    },
    resetKey,
    notImageMessage: AVATAR_NOT_IMAGE,
  });

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
          <FileButton inputProps={inputProps}>Choose an image</FileButton>
          <p id={hintId} className="field__hint">
            {file
              ? `New avatar: ${file.name}`
              : removed
                ? 'The avatar will be removed when you save.'
                : 'JPEG, PNG, WebP or AVIF. It is cropped to a circle.'}
          </p>
          <div className="photo-input__actions">
            {file && (
              <button type="button" className="button button--link" onClick={clear}>
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
