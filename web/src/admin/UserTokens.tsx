import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { fetchAllTokens, revokeToken, tokenCounts, tokenKeys } from '../api/tokens.ts';
import type { User } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { TOKEN_REVOKED, TokenItem } from '../profile/AccessTokens.tsx';
import '../ui/account-list.css';

/** Every user's access tokens (GET /tokens/all), shared by the registry and the manage panel. */
export function useAllTokens() {
  return useQuery({ queryKey: tokenKeys.all, queryFn: fetchAllTokens });
}

/** How many access tokens each user has, by id; empty until they are loaded. */
export function useTokenCounts(): Map<number, number> {
  const { data } = useAllTokens();
  return data ? tokenCounts(data) : new Map();
}

/** A user's access tokens as the admin sees them: name, scope, dates, and Revoke. */
export function UserTokens({ user }: { user: User }) {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const query = useAllTokens();
  const revoking = useMutation({
    mutationFn: revokeToken,
    onSuccess: () => notifySuccess(TOKEN_REVOKED),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
  const tokens = query.data?.filter((token) => token.userId === user.id) ?? [];

  return (
    <section className="admin-keys" aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-subtitle">
        Access tokens
      </h3>
      {query.isPending && (
        <p className="list-status" role="status">
          Loading access tokens…
        </p>
      )}
      {query.isError && (
        <p role="alert" className="form-error">
          {messageOf(query.error, 'Unable to load access tokens')}
        </p>
      )}
      {query.isSuccess &&
        (tokens.length === 0 ? (
          <p className="empty-state admin-keys__empty">{user.username} has no access tokens.</p>
        ) : (
          <ul
            className="account-list admin-keys__list"
            aria-label={`Access tokens of ${user.username}`}
          >
            {tokens.map((token) => (
              <TokenItem
                key={token.id}
                token={token}
                busy={revoking.isPending}
                onRevoke={() => revoking.mutate(token.id)}
                revokeLabel={`Revoke ${token.name} of ${user.username}`}
                buttonClassName="button button--secondary button--small admin-button--small"
              />
            ))}
          </ul>
        ))}
      {revoking.error && (
        <p role="alert" className="form-error">
          {messageOf(revoking.error, 'The token could not be revoked')}
        </p>
      )}
    </section>
  );
}
