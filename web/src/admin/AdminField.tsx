import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import type { Role } from '../api/types.ts';
import { ROLE_LABELS } from '../session/roles.ts';
import { ROLES } from './admin-rules.ts';

interface Described {
  label: string;
  /** Help under the input. */
  hint?: ReactNode;
  /** A rule the value breaks; marks the input invalid and is read out. */
  error?: string;
}

function describedBy(...ids: (string | undefined)[]): string | undefined {
  const present = ids.filter(Boolean);
  return present.length ? present.join(' ') : undefined;
}

export interface AdminFieldProps
  extends Described, Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled text input with an optional hint and error, both tied to the input. */
export function AdminField({ label, hint, error, inputRef, className, ...input }: AdminFieldProps) {
  const id = useId();
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
        aria-describedby={describedBy(
          error ? `${id}-error` : undefined,
          hint ? `${id}-hint` : undefined,
        )}
      />
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The role select: 'Vault User' (USER) or 'System Admin' (ADMIN). */
export function RoleField({
  value,
  onChange,
  hint,
  disabled,
}: {
  value: Role;
  onChange: (role: Role) => void;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Role
      </label>
      <select
        id={id}
        name="role"
        className="field__input field__select"
        value={value}
        onChange={(event) => onChange(event.target.value as Role)}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
