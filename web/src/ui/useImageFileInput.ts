import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, InputHTMLAttributes, RefObject } from 'react';
import { isImageFile } from './images.ts';

interface ImageFileInputOptions {
  /** The chosen file, if any. */
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** Changes whenever the form is reset, to empty the file input. */
  resetKey: number;
  /** Shown when the chosen file is not an image. */
  notImageMessage: string;
}

/**
 * An image file input's logic: images only (checked before anything is sent), a preview URL of
 * the chosen file (released when it is no longer shown), and emptying the input on reset.
 * `inputProps` go on the `<input>`; the hint goes under `hintId` and the error under `errorId`.
 */
export function useImageFileInput({
  file,
  onFileChange,
  resetKey,
  notImageMessage,
}: ImageFileInputOptions) {
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
      setError(notImageMessage);
      if (inputRef.current) inputRef.current.value = '';
      onFileChange(null);
      return;
    }
    setError(null);
    onFileChange(chosen);
  };

  /** Drops the chosen file. */
  const clear = () => {
    if (inputRef.current) inputRef.current.value = '';
    onFileChange(null);
  };

  const inputProps: InputHTMLAttributes<HTMLInputElement> & {
    ref: RefObject<HTMLInputElement | null>;
  } = {
    ref: inputRef,
    id: inputId,
    type: 'file',
    accept: 'image/*',
    className: 'photo-input__file',
    'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
    'aria-invalid': error ? true : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => choose(event.target.files?.[0] ?? null),
  };

  return { inputId, hintId, errorId, error, previewUrl, clear, inputProps };
}
