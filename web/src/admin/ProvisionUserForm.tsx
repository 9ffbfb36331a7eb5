import { useId } from 'react';
import { createUser } from '../api/admin.ts';
import type { User } from '../api/types.ts';
import { useNotes } from '../notes/notes.tsx';
import { Field } from '../ui/Field.tsx';
import { RoleField } from './RoleField.tsx';
import { UserPlusIcon } from '../ui/icons.tsx';
import { createdNote, newUserErrors } from './admin-rules.ts';
import type { NewUserDraft } from './admin-rules.ts';
import { useUserForm } from './useUserForm.ts';

const EMPTY: NewUserDraft = { username: '', fullName: '', email: '', password: '' };

/**
 * The provision-user form: username, full name, email, password and role, all required
 * (checked here before anything is sent); the server's refusals are shown in the panel.
 */
export function ProvisionUserForm({ onCreated }: { onCreated: (user: User) => void }) {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const form = useUserForm({
    initial: EMPTY,
    role: 'USER',
    check: newUserErrors,
    failure: 'The user could not be created',
  });

  const submit = form.submit(async (draft, role) => {
    const user = await createUser({
      username: draft.username.trim(),
      fullName: draft.fullName.trim(),
      email: draft.email.trim(),
      password: draft.password,
      role,
    });
    onCreated(user);
    notifySuccess(createdNote(user.username));
    form.reset(EMPTY, 'USER');
    form.focus('username');
  });

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
          {...form.field('username')}
          hint="3 to 30 lowercase letters, digits or underscores. It is also their fediverse name."
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <Field label="Full name" {...form.field('fullName')} autoComplete="off" required />
        <Field label="Email" type="email" {...form.field('email')} autoComplete="off" required />
        <Field
          label="Password"
          type="password"
          {...form.field('password')}
          hint="At least 8 characters."
          autoComplete="new-password"
          required
        />
        <RoleField value={form.role} onChange={form.setRole} />
        {form.serverError && (
          <p role="alert" className="form-error admin-form__wide">
            {form.serverError}
          </p>
        )}
        <div className="admin-form__actions admin-form__wide">
          <button type="submit" className="button button--primary" disabled={form.busy}>
            <UserPlusIcon />
            {form.busy ? 'Creating…' : 'Create user'}
          </button>
        </div>
      </form>
    </section>
  );
}
