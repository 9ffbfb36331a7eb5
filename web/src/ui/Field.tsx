import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  /** Help text under the input, tied to it with aria-describedby. */
  hint?: ReactNode;
  /** A rule the value breaks; marks the input invalid and is read out before the hint. */
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}

function describedBy(...ids: (string | undefined)[]): string | undefined {
  const present = ids.filter(Boolean);
  return present.length ? present.join(' ') : undefined;
}

/** A labelled text input with an optional error and hint, both tied to the input. */
export function Field({ label, hint, error, inputRef, className, ...input }: FieldProps) {
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  return (
    <div className={`field ${className ?? ''}`.trim()}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error ? errorId : undefined, hint ? hintId : undefined)}
      />
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
