import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { createUser } from '../api/admin.ts';
import type { Role, User } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Field } from '../ui/Field.tsx';
import { RoleField } from './RoleField.tsx';
import { UserPlusIcon } from '../ui/icons.tsx';
import { createdNote, newUserErrors } from './admin-rules.ts';
import type { FieldErrors, NewUserDraft } from './admin-rules.ts';

const EMPTY: NewUserDraft = { username: '', fullName: '', email: '', password: '' };
const FIELD_ORDER: (keyof NewUserDraft)[] = ['username', 'fullName', 'email', 'password'];

/**
 * The provision-user form: username, full name, email, password and role, all required
 * (checked here before anything is sent); the server's refusals are shown in the panel.
 */
export function ProvisionUserForm({ onCreated }: { onCreated: (user: User) => void }) {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const [draft, setDraft] = useState<NewUserDraft>(EMPTY);
  const [role, setRole] = useState<Role>('USER');
  const [errors, setErrors] = useState<FieldErrors<keyof NewUserDraft>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = {
    username: useRef<HTMLInputElement>(null),
    fullName: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
  };

  const set = (name: keyof NewUserDraft) => (value: string) => {
    setDraft((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = newUserErrors(draft);
    setErrors(found);
    setServerError(null);
    const first = FIELD_ORDER.find((name) => found[name]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    setBusy(true);
    try {
      const user = await createUser({
        username: draft.username.trim(),
        fullName: draft.fullName.trim(),
        email: draft.email.trim(),
        password: draft.password,
        role,
      });
      onCreated(user);
      notifySuccess(createdNote(user.username));
      setDraft(EMPTY);
      setRole('USER');
      refs.username.current?.focus();
    } catch (caught) {
      setServerError(messageOf(caught, 'The user could not be created'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel admin-panel admin-provision" aria-labelledby={titleId}>
      <div className="admin-panel__header">
        <h2 id={titleId} className="panel__title admin-panel__title">
          <span className="admin-panel__icon" aria-hidden="true">
            <UserPlusIcon />
          </span>
          Provision a user
        </h2>
      </div>
      <p className="admin-panel__intro">
        There is no self-registration: new people get their account here. Share the password with
        them privately.
      </p>
      <form className="admin-form" onSubmit={submit} noValidate aria-labelledby={titleId}>
        <Field
          label="Username"
          name="username"
          inputRef={refs.username}
          value={draft.username}
          onChange={(event) => set('username')(event.target.value)}
          error={errors.username}
          hint="3 to 30 lowercase letters, digits or underscores. It is also their fediverse name."
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <Field
          label="Full name"
          name="fullName"
          inputRef={refs.fullName}
          value={draft.fullName}
          onChange={(event) => set('fullName')(event.target.value)}
          error={errors.fullName}
          autoComplete="off"
          required
        />
        <Field
          label="Email"
          name="email"
          type="email"
          inputRef={refs.email}
          value={draft.email}
          onChange={(event) => set('email')(event.target.value)}
          error={errors.email}
          autoComplete="off"
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          inputRef={refs.password}
          value={draft.password}
          onChange={(event) => set('password')(event.target.value)}
          error={errors.password}
          hint="At least 8 characters."
          autoComplete="new-password"
          required
        />
        <RoleField value={role} onChange={setRole} />
        {serverError && (
          <p role="alert" className="form-error admin-form__wide">
            {serverError}
          </p>
        )}
        <div className="admin-form__actions admin-form__wide">
          <button type="submit" className="button button--primary" disabled={busy}>
            <UserPlusIcon />
            {busy ? 'Creating…' : 'Create user'}
          </button>
        </div>
      </form>
    </section>
  );
}
