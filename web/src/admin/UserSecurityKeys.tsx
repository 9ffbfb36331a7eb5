import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { deleteUserCredential, fetchUserCredentials } from '../api/admin.ts';
import { queryKeys } from '../api/query-keys.ts';
import { credentialLabel } from '../api/second-factor.ts';
import type { SecurityKeyCredential, User } from '../api/types.ts';
import { ApiError } from '../api/client.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser } from '../session/session.tsx';
import {
  DELETE_FAILED,
  KEY_REMOVED,
  RemoveKeyDialog,
  SecurityKeyList,
} from '../ui/SecurityKeyList.tsx';
import '../ui/account-list.css';

const KEYS_LOAD_FAILED = 'Unable to load security keys';

/**
 * A user's security keys as the admin sees them (GET /webauthn/admin/users/{id}/credentials):
 * label, added, last used, and a Remove button that asks first.
 */
export function UserSecurityKeys({
  user,
  onUserChanged,
  onKeysChanged,
}: {
  user: User;
  onUserChanged: (user: User) => void;
  /** The keys after a removal (to keep the session's own list current when it is the admin's). */
  onKeysChanged?: (credentials: SecurityKeyCredential[]) => void;
}) {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const queryKey = queryKeys.userCredentials(user.id);
  const query = useQuery({ queryKey, queryFn: () => fetchUserCredentials(user.id) });
  const [removing, setRemoving] = useState<SecurityKeyCredential | null>(null);
  // An admin's own key: the server wants the current password, as on the profile page.
  const own = useCurrentUser().id === user.id;

  const credentials = query.data ?? [];

  return (
    <section className="admin-keys" aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-subtitle">
        Security keys
      </h3>
      {query.isPending && (
        <p className="list-status" role="status">
          Loading security keys…
        </p>
      )}
      {query.isError && (
        <div className="list-error">
          <p role="alert" className="form-error">
            {messageOf(query.error, KEYS_LOAD_FAILED)}
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void query.refetch()}
          >
            Try again
          </button>
        </div>
      )}
      {query.isSuccess && (
        <SecurityKeyList
          credentials={credentials}
          listLabel={`Security keys of ${user.username}`}
          listClassName="admin-keys__list"
          block="admin-keys"
          emptyClassName="empty-state admin-keys__empty"
          smallButtonClassName="admin-button--small"
          onRemove={setRemoving}
        />
      )}

      {removing && (
        <RemoveKeyDialog
          description={
            credentials.length === 1
              ? `“${credentialLabel(removing)}” is the last security key of ${user.username}: after this, they sign in with their password alone.`
              : `“${credentialLabel(removing)}” will no longer sign ${user.username} in.`
          }
          onCancel={() => setRemoving(null)}
          askPassword={own}
          onRemove={async (password) => {
            const result = await deleteUserCredential(removing.id, own ? password : undefined);
            queryClient.setQueryData(queryKey, result.credentials);
            setRemoving(null);
            // Removing the last key turns the security key off.
            onUserChanged(
              result.user ??
                (result.credentials.length === 0 ? { ...user, webauthnEnabled: false } : user),
            );
            onKeysChanged?.(result.credentials);
            notifySuccess(KEY_REMOVED);
          }}
          failureMessage={(caught) => {
            // A missing or wrong password: the server's words, and the key is still there.
            if (own && caught instanceof ApiError && caught.status === 403) {
              return messageOf(caught, DELETE_FAILED);
            }
            console.warn(DELETE_FAILED, messageOf(caught, ''));
            // The removal was refused (the key may be gone already): the list is asked for again.
            void queryClient.invalidateQueries({ queryKey });
            return DELETE_FAILED;
          }}
        />
      )}
    </section>
  );
}
