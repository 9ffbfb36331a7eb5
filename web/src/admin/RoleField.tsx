import { useId } from 'react';
import type { ReactNode } from 'react';
import type { Role } from '../api/types.ts';
import { ROLE_LABELS } from '../session/roles.ts';
import { ROLES } from './admin-rules.ts';

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
