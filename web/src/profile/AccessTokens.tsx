import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import {
  createToken,
  endOfDay,
  fetchTokens,
  revokeToken,
  tokenKeys,
  type CreatedToken,
  type Token,
  type TokenScope,
} from '../api/tokens.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { formatDate, formatDateTime } from '../people/dates.ts';
import { ConfirmAction } from '../ui/ConfirmAction.tsx';
import { Field } from '../ui/Field.tsx';
import { Panel, PanelError } from './Panel.tsx';
import '../ui/account-list.css';

export const TOKEN_REVOKED = 'Access token revoked';
export const SCOPE_LABELS: Record<TokenScope, string> = {
  read: 'Read only',
  write: 'Read and write',
};

/** The secret of a token just made: shown this once, with a copy button. */
function NewSecret({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const secretId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the secret stays selectable.
      document.getElementById(secretId)?.focus();
    }
  };
  return (
    <div className="access-token-secret" role="status">
      <p className="access-token-secret__title">Token “{created.token.name}” created</p>
      <p className="account-panel__intro">
        Copy it now: it will not be shown again. Whoever holds it can use the vault as you, within
        its scope.
      </p>
      <input
        id={secretId}
        className="field__input access-token-secret__value"
        readOnly
        value={created.secret}
        aria-label="The new access token"
        onFocus={(event) => event.target.select()}
      />
      <div className="account-panel__actions">
        <button type="button" className="button button--secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button button--primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/**
 * One token in a list: name, scope, dates and Revoke, which asks first (the profile's list, and
 * the Admin Console's list of a user's tokens, whose button names the user too).
 */
export function TokenItem({
  token,
  busy,
  onRevoke,
  revokeLabel = `Revoke ${token.name}`,
  buttonClassName = 'button button--secondary button--small',
}: {
  token: Pick<Token, 'name' | 'scope' | 'createdAt' | 'lastUsedAt' | 'expiresAt'>;
  busy: boolean;
  onRevoke: () => void;
  revokeLabel?: string;
  buttonClassName?: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
  return (
    <li className="account-list__item account-list__item--wraps">
      <div className="account-list__body">
        <p className="account-list__name">{token.name}</p>
        <p className="account-list__meta">
          <span>{SCOPE_LABELS[token.scope]}</span>
          <span>Created {formatDate(token.createdAt)}</span>
          <span>
            {token.lastUsedAt ? `Last used ${formatDateTime(token.lastUsedAt)}` : 'Never used'}
          </span>
          <span>
            {token.expiresAt
              ? `${expired ? 'Expired' : 'Expires'} ${formatDateTime(token.expiresAt)}`
              : 'Never expires'}
          </span>
        </p>
      </div>
      {confirming ? (
        <ConfirmAction
          question={`Revoke “${token.name}”? Whatever uses it is refused from now on.`}
          confirmLabel="Yes, revoke"
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={onRevoke}
        />
      ) : (
        <button
          type="button"
          className={buttonClassName}
          onClick={() => setConfirming(true)}
          disabled={busy}
          aria-label={revokeLabel}
        >
          Revoke
        </button>
      )}
    </li>
  );
}

/**
 * Personal access tokens for scripts and other tools: make one (name, scope, an optional last
 * day), see its secret once, list them and revoke them.
 */
export function AccessTokens() {
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const scopeId = useId();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [expiry, setExpiry] = useState('');
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const query = useQuery({ queryKey: tokenKeys.own, queryFn: fetchTokens });
  const refresh = () => queryClient.invalidateQueries({ queryKey: tokenKeys.own });
  const creating = useMutation({
    mutationFn: createToken,
    onSuccess: (answer) => {
      setCreated(answer);
      setName('');
      setExpiry('');
    },
    onSettled: refresh,
  });
  const revoking = useMutation({
    mutationFn: revokeToken,
    onSuccess: () => notifySuccess(TOKEN_REVOKED),
    onSettled: refresh,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (creating.isPending) return;
    setCreated(null);
    creating.mutate({ name: name.trim(), scope, expiresAt: expiry ? endOfDay(expiry) : null });
  };

  const tokens = query.data ?? null;
  const error = creating.error
    ? messageOf(creating.error, 'The token could not be created')
    : revoking.error
      ? messageOf(revoking.error, 'The token could not be revoked')
      : query.error
        ? messageOf(query.error, 'Unable to load access tokens')
        : null;

  return (
    <Panel
      title="Access tokens"
      intro="Let a script or another tool use the vault as you: read only, or also log and change entries. A token can never change your account."
    >
      {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
      <form className="stack" onSubmit={submit} noValidate aria-label="New access token">
        <Field
          label="Name"
          name="tokenName"
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
          hint="What it is for, e.g. “Home dashboard”."
          maxLength={100}
        />
        <div className="field">
          <label className="field__label" htmlFor={scopeId}>
            Scope
          </label>
          <select
            id={scopeId}
            name="scope"
            className="field__input field__select"
            value={scope}
            onChange={(event) => setScope(event.target.value as TokenScope)}
          >
            <option value="read">{SCOPE_LABELS.read}</option>
            <option value="write">{SCOPE_LABELS.write}</option>
          </select>
        </div>
        <Field
          label="Expires after (optional)"
          name="expiry"
          type="date"
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          hint="Leave empty for a token that works until you revoke it."
        />
        <div className="account-panel__actions">
          <button type="submit" className="button button--primary" disabled={creating.isPending}>
            {creating.isPending ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </form>
      {tokens === null && !query.error && <p className="list-status">Loading access tokens…</p>}
      {tokens !== null && (
        <>
          <h3 className="account-panel__subtitle">Your tokens</h3>
          {tokens.length === 0 ? (
            <p className="account-panel__muted">You have no access tokens.</p>
          ) : (
            <ul className="account-list" aria-label="Your access tokens">
              {tokens.map((token) => (
                <TokenItem
                  key={token.id}
                  token={token}
                  busy={revoking.isPending}
                  onRevoke={() => revoking.mutate(token.id)}
                />
              ))}
            </ul>
          )}
        </>
      )}
      <PanelError message={error} />
    </Panel>
  );
}
