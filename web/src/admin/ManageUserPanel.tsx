import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { updateUser } from '../api/admin.ts';
import type { SecurityKeyCredential, User } from '../api/types.ts';
import { useNotes } from '../notes/notes.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { CloseIcon, ProfileIcon } from '../ui/icons.tsx';
import { Field } from '../ui/Field.tsx';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import { RoleField } from './RoleField.tsx';
import { formatDate } from '../people/dates.ts';
import { updatedNote, userEditErrors } from './admin-rules.ts';
import { RoleTag, SecondFactorTag } from './UserRegistryPanel.tsx';
import { UserSecurityKeys } from './UserSecurityKeys.tsx';
import { UserTokens } from './UserTokens.tsx';
import { useUserForm } from './useUserForm.ts';

interface ManageUserPanelProps {
  user: User;
  /** The edited user is the signed-in admin. */
  isSelf: boolean;
  onUpdated: (user: User) => void;
  onSelfKeysChanged: (credentials: SecurityKeyCredential[]) => void;
  onClose: () => void;
}

/**
 * The manage-user panel: edit full name, email and role, reset the password (sent only when
 * non-blank), and see and remove the user's security keys and access tokens. Render it keyed by the user's id,
 * so that choosing another user starts a fresh form.
 */
export function ManageUserPanel({
  user,
  isSelf,
  onUpdated,
  onSelfKeysChanged,
  onClose,
}: ManageUserPanelProps) {
  const titleId = useId();
  const kickerId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  useKeepFocus(panelRef);
  const { notifySuccess } = useNotes();
  const form = useUserForm({
    initial: { fullName: user.fullName, email: user.email },
    role: user.role,
    check: userEditErrors,
    failure: 'The user could not be updated',
  });
  const [password, setPassword] = useState('');

  // Opened by a choice in the registry: bring the panel into view and move focus to it.
  useEffect(() => {
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    panelRef.current?.scrollIntoView?.({
      block: 'start',
      behavior: reduceMotion ? 'auto' : 'smooth',
    });
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  const submit = form.submit(async (draft, role) => {
    const reset = password.trim() !== '';
    const updated = await updateUser(user.id, {
      fullName: draft.fullName.trim(),
      email: draft.email.trim(),
      role,
      ...(reset && { password }),
    });
    setPassword('');
    form.reset({ fullName: updated.fullName, email: updated.email }, updated.role);
    notifySuccess(updatedNote(updated.username, reset));
    onUpdated(updated);
  });

  return (
    <section
      ref={panelRef}
      className="panel admin-panel admin-manage"
      aria-labelledby={`${kickerId} ${titleId}`}
    >
      <div className="admin-manage__header">
        <Avatar user={user} size="large" />
        <div className="admin-manage__who">
          <p id={kickerId} className="admin-manage__kicker">
            Manage user
          </p>
          <h2 id={titleId} ref={headingRef} tabIndex={-1} className="admin-manage__name">
            {user.fullName || user.username}
          </h2>
          <p className="admin-manage__meta">
            <span>@{user.username}</span>
            <RoleTag role={user.role} />
            <SecondFactorTag user={user} />
          </p>
        </div>
        <button
          type="button"
          className="icon-button admin-manage__close"
          aria-label="Close the manage-user panel"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>

      <dl className="admin-facts">
        <div>
          <dt>Created</dt>
          <dd>
            <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Fediverse</dt>
          <dd className="admin-facts__handle">{user.activityPubHandle ?? 'Not shared'}</dd>
        </div>
        <div>
          <dt>Public profile</dt>
          <dd>
            <Link href={`/users/${encodeURIComponent(user.username)}`} className="admin-link">
              <ProfileIcon />
              View profile
            </Link>
          </dd>
        </div>
      </dl>

      <form
        className="admin-form"
        onSubmit={submit}
        noValidate
        aria-label={`Edit ${user.username}`}
      >
        <Field label="Full name" {...form.field('fullName')} autoComplete="off" required />
        <Field label="Email" type="email" {...form.field('email')} autoComplete="off" required />
        <RoleField
          value={form.role}
          onChange={form.setRole}
          hint={
            isSelf ? 'This is you: as a Vault User you would leave the Admin Console.' : undefined
          }
        />
        <Field
          label="Reset password (optional)"
          name="password"
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="new-password"
          hint={
            isSelf
              ? 'Leave blank to keep your password. A new one signs you out everywhere, this browser too.'
              : 'Leave blank to keep their password. A new one signs them out everywhere.'
          }
        />
        {form.serverError && (
          <p role="alert" className="form-error admin-form__wide">
            {form.serverError}
          </p>
        )}
        <div className="admin-form__actions admin-form__wide">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="button button--primary" disabled={form.busy}>
            {form.busy ? 'Saving…' : 'Save changes'}
          </button>
        </div>
      </form>

      <UserSecurityKeys
        user={user}
        onUserChanged={onUpdated}
        onKeysChanged={isSelf ? onSelfKeysChanged : undefined}
      />

      <UserTokens user={user} />

      {user.totpEnabled && (
        <p className="admin-manage__note">
          {user.username} signs in with an authenticator app. If they lose it, a backup code gets
          them in; on the server,{' '}
          <code>npm run vault -- reset-second-factor --username {user.username}</code> turns it off.
        </p>
      )}
    </section>
  );
}
