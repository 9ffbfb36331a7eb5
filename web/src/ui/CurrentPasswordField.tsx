import type { RefObject } from 'react';
import { Field } from './Field.tsx';

/** 'Current password': changing the second factor needs it (the server then trusts this session for five minutes). */
export function CurrentPasswordField({
  value,
  onChange,
  inputRef,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
  disabled?: boolean;
}) {
  return (
    <Field
      label="Current password"
      name="current-password"
      type="password"
      inputRef={inputRef}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoComplete="current-password"
      hint="Changing how you sign in needs your password."
      disabled={disabled}
    />
  );
}
