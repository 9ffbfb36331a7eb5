import { useId, useState } from 'react';
import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import type { User } from '../api/types.ts';
import { ROLE_LABELS } from '../session/roles.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { KeyIcon, PhoneIcon, SearchIcon, UsersIcon } from '../ui/icons.tsx';
import { formatDate } from '../people/dates.ts';
import { NO_USERS, SECOND_FACTOR_LABELS, filterUsers, secondFactorOf } from './admin-rules.ts';
import type { UserRegistry } from './useUserRegistry.ts';
import { useTokenCounts } from './UserTokens.tsx';

/** 'Vault User' / 'System Admin' as a small tag. */
export function RoleTag({ role }: { role: User['role'] }) {
  return <span className={`admin-tag admin-tag--${role.toLowerCase()}`}>{ROLE_LABELS[role]}</span>;
}

/** Which second factor is on: 'Security key', 'Authenticator app' or 'None'. */
export function SecondFactorTag({ user }: { user: Pick<User, 'webauthnEnabled' | 'totpEnabled'> }) {
  const factor = secondFactorOf(user);
  return (
    <span className={`admin-factor admin-factor--${factor}`}>
      {factor === 'security-key' && <KeyIcon />}
      {factor === 'authenticator-app' && <PhoneIcon />}
      {SECOND_FACTOR_LABELS[factor]}
    </span>
  );
}

interface UserRegistryPanelProps {
  registry: UserRegistry;
  selectedId: number | null;
  currentUserId: number;
  onSelect: (user: User) => void;
}

/**
 * The user registry: every user in a real table (a card per user on narrow screens), with a
 * Manage button that opens the manage-user panel. A click anywhere on a row does the same.
 */
export function UserRegistryPanel({
  registry,
  selectedId,
  currentUserId,
  onSelect,
}: UserRegistryPanelProps) {
  const titleId = useId();
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const { users, loading, error } = registry;
  const shown = filterUsers(users, filter);
  const admins = users.filter((user) => user.role === 'ADMIN').length;
  const protectedCount = users.filter((user) => secondFactorOf(user) !== 'none').length;
  const tokenCounts = useTokenCounts();

  const onRowClick = (event: MouseEvent<HTMLTableRowElement>, user: User) => {
    if ((event.target as HTMLElement).closest('a, button, input')) return;
    if (window.getSelection()?.toString()) return;
    onSelect(user);
  };

  return (
    <section className="panel admin-panel admin-registry" aria-labelledby={titleId}>
      <div className="admin-panel__header">
        <h2 id={titleId} className="panel__title admin-panel__title">
          <span className="admin-panel__icon" aria-hidden="true">
            <UsersIcon />
          </span>
          User registry
        </h2>
        {!loading && !error && (
          <p className="admin-registry__summary">
            <span>
              {users.length} {users.length === 1 ? 'user' : 'users'}
            </span>
            <span>
              {admins} {admins === 1 ? 'System Admin' : 'System Admins'}
            </span>
            <span>{protectedCount} with a second factor</span>
          </p>
        )}
      </div>

      <div className="admin-registry__tools">
        <label htmlFor={filterId} className="visually-hidden">
          Filter users
        </label>
        <div className="admin-filter">
          <SearchIcon />
          <input
            id={filterId}
            type="search"
            className="admin-filter__input"
            placeholder="Filter by username, name or email"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </div>

      {loading ? (
        <p className="list-status" role="status">
          Loading users…
        </p>
      ) : error ? (
        <div className="list-error">
          <p role="alert" className="form-error">
            {error}
          </p>
          <button type="button" className="button button--secondary" onClick={registry.reload}>
            Try again
          </button>
        </div>
      ) : shown.length === 0 ? (
        <p className="empty-state">{NO_USERS}</p>
      ) : (
        <div className="admin-table__scroller">
          <table className="admin-table" aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Second factor</th>
                <th scope="col">Tokens</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((user) => {
                const selected = user.id === selectedId;
                return (
                  <tr
                    key={user.id}
                    className={`admin-table__row${selected ? ' is-selected' : ''}`}
                    aria-current={selected ? 'true' : undefined}
                    onClick={(event) => onRowClick(event, user)}
                  >
                    <th scope="row" className="admin-table__user">
                      <div className="admin-user">
                        <Avatar user={user} />
                        <span className="admin-user__names">
                          <span className="admin-user__name">
                            {user.fullName || user.username}
                            {user.id === currentUserId && (
                              <span className="admin-user__you"> (you)</span>
                            )}
                          </span>
                          <Link
                            href={`/users/${encodeURIComponent(user.username)}`}
                            className="admin-user__username"
                            title="Public profile"
                          >
                            @{user.username}
                          </Link>
                        </span>
                      </div>
                    </th>
                    <td data-label="Email" className="admin-table__email">
                      {user.email}
                    </td>
                    <td data-label="Role">
                      <RoleTag role={user.role} />
                    </td>
                    <td data-label="Second factor">
                      <SecondFactorTag user={user} />
                    </td>
                    <td data-label="Tokens" data-token-count={user.id}>
                      {tokenCounts.get(user.id) ?? 0}
                    </td>
                    <td data-label="Created" className="admin-table__date">
                      <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
                    </td>
                    <td className="admin-table__action">
                      <button
                        type="button"
                        className="chip-button chip-button--accent"
                        onClick={() => onSelect(user)}
                        aria-label={`Manage ${user.username}`}
                        data-manage-user={user.id}
                      >
                        Manage
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
