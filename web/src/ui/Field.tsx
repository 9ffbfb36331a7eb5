import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  /** Help or error text under the input, tied to it with aria-describedby. */
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled text input. */
export function Field({ label, hint, inputRef, className, ...input }: FieldProps) {
  const id = useId();
  const hintId = useId();
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
        aria-describedby={hint ? hintId : undefined}
      />
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
