import { useRef, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import type { Role } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import type { FieldErrors } from './admin-rules.ts';

interface UserFormOptions<D extends Record<keyof D, string>> {
  /** The fields as the form opens; their order is the order in which a rule broken is focused. */
  initial: D;
  role: Role;
  /** The rules checked before anything is sent (admin-rules.ts). */
  check: (draft: D) => FieldErrors<Extract<keyof D, string>>;
  /** Shown when the server's refusal has no message of its own. */
  failure: string;
}

/**
 * The state and submit of a form of the admin's about one user (ProvisionUserForm,
 * ManageUserPanel): text fields and a role; a field's error clears as it is typed in; on submit
 * the rules are checked first (the first field breaking one is focused and nothing is sent),
 * then the form is busy while `send` runs, and a refusal is shown as the form's error.
 */
export function useUserForm<D extends Record<keyof D, string>>({
  initial,
  role: initialRole,
  check,
  failure,
}: UserFormOptions<D>) {
  type Name = Extract<keyof D, string>;
  const [draft, setDraft] = useState<D>(initial);
  const [role, setRole] = useState<Role>(initialRole);
  const [errors, setErrors] = useState<FieldErrors<Name>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputs = useRef<Partial<Record<Name, HTMLInputElement | null>>>({});

  const focus = (name: Name) => inputs.current[name]?.focus();

  /** The props of the `Field` of one text field. */
  const field = (name: Name) => ({
    name,
    value: draft[name],
    error: errors[name],
    inputRef: (input: HTMLInputElement | null) => {
      inputs.current[name] = input;
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.target.value;
      setDraft((current) => ({ ...current, [name]: value }));
      if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  /** Shows these fields and role (after a save: what was saved, or a fresh form). */
  const reset = (next: D, nextRole: Role) => {
    setDraft(next);
    setRole(nextRole);
  };

  /** The form's submit handler: checks the rules, then runs `send` with the fields and role. */
  const submit = (send: (draft: D, role: Role) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = check(draft);
    setErrors(found);
    setServerError(null);
    const first = (Object.keys(initial) as Name[]).find((name) => found[name]);
    if (first) {
      focus(first);
      return;
    }
    setBusy(true);
    try {
      await send(draft, role);
    } catch (caught) {
      setServerError(messageOf(caught, failure));
    } finally {
      setBusy(false);
    }
  };

  return { draft, role, setRole, serverError, busy, field, focus, reset, submit };
}
