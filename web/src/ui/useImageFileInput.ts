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
  /**
   * Makes a chosen image ready to send (smaller, say). The chosen file is passed on at once and
   * replaced by what this resolves to, unless another file was chosen or the form reset since.
   */
  prepare?: (file: File) => Promise<File>;
}

/**
 * An image file input's logic: images only (checked before anything is sent), a preview URL of
 * the chosen file (released when it is no longer shown), and emptying the input on reset.
 * `inputProps` go on the `<input>` (a FileButton's); the hint goes under `hintId` and the error
 * under `errorId`. The input takes `image/*` without `capture`: a phone then offers its camera
 * and its photo library both, where `capture` would open the camera alone.
 */
export function useImageFileInput({
  file,
  onFileChange,
  resetKey,
  notImageMessage,
  prepare,
}: ImageFileInputOptions) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  /** Counts choices and resets: a preparation that finishes late is dropped. */
  const choice = useRef(0);
  const [preparing, setPreparing] = useState(false);
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

  const emptyInputs = () => {
    if (inputRef.current) inputRef.current.value = '';
  };

  useEffect(() => {
    emptyInputs();
    choice.current += 1;
    setPreparing(false);
    setError(null);
  }, [resetKey]);

  const choose = (chosen: File | null) => {
    const current = ++choice.current;
    setPreparing(false);
    if (chosen && !isImageFile(chosen)) {
      setError(notImageMessage);
      emptyInputs();
      onFileChange(null);
      return;
    }
    setError(null);
    onFileChange(chosen);
    if (!chosen || !prepare) return;
    setPreparing(true);
    prepare(chosen).then(
      (ready) => {
        if (current !== choice.current) return;
        setPreparing(false);
        if (ready !== chosen) onFileChange(ready);
      },
      () => {
        // The chosen file stays as it is; the server judges it.
        if (current === choice.current) setPreparing(false);
      },
    );
  };

  /** Drops the chosen file. */
  const clear = () => {
    choice.current += 1;
    setPreparing(false);
    emptyInputs();
    onFileChange(null);
  };

  const onChange = (event: ChangeEvent<HTMLInputElement>) =>
    choose(event.target.files?.[0] ?? null);

  const inputProps: InputHTMLAttributes<HTMLInputElement> & {
    ref: RefObject<HTMLInputElement | null>;
  } = {
    ref: inputRef,
    id: inputId,
    type: 'file',
    accept: 'image/*',
    'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
    'aria-invalid': error ? true : undefined,
    onChange,
  };

  return {
    inputId,
    hintId,
    errorId,
    error,
    previewUrl,
    preparing,
    clear,
    inputProps,
  };
}
