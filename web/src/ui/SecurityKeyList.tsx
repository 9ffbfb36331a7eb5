import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { credentialLabel } from '../api/second-factor.ts';
import type { SecurityKeyCredential } from '../api/types.ts';
import { formatDateTime } from '../people/dates.ts';
import { Dialog } from './Dialog.tsx';
import { CurrentPasswordField } from './CurrentPasswordField.tsx';
import { KeyIcon, TrashIcon } from './icons.tsx';
import './account-list.css';

export const NO_KEYS = 'No security keys registered yet.';
export const REMOVE_KEY_QUESTION = 'Remove this security key?';
export const KEY_REMOVED = 'Security key removed';
export const DELETE_FAILED = 'Failed to delete credential';

export interface SecurityKeyListProps {
  credentials: SecurityKeyCredential[];
  /** The list's accessible name. */
  listLabel: string;
  /** The list's class. */
  listClassName: string;
  /** The BEM block of the items' classes ('account-list' on the profile, 'admin-keys' for admins). */
  block: string;
  /** Classes of the paragraph shown when there are no keys. */
  emptyClassName: string;
  /** The class that makes the Remove buttons small. */
  smallButtonClassName: string;
  /** Remove was pressed: the caller asks first with a RemoveKeyDialog. */
  onRemove: (credential: SecurityKeyCredential) => void;
}

/**
 * Asks 'Remove this security key?'. `onRemove` deletes the key and applies the result (the caller
 * then closes the dialog); when it throws, the dialog stays open and shows `failureMessage(caught)`.
 * With `askPassword` it has a 'Current password' field, whose value `onRemove` gets.
 */
export function RemoveKeyDialog({
  description,
  onCancel,
  onRemove,
  failureMessage,
  askPassword = false,
}: {
  description: string;
  onCancel: () => void;
  onRemove: (password: string) => Promise<void>;
  failureMessage: (caught: unknown) => string;
  askPassword?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const formId = useId();

  const remove = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onRemove(password);
    } catch (caught) {
      setError(failureMessage(caught));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={REMOVE_KEY_QUESTION}
      onClose={onCancel}
      size="small"
      description={description}
      initialFocus={askPassword ? passwordRef : undefined}
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button--danger" disabled={busy}>
            {busy ? 'Removing…' : 'Remove'}
          </button>
        </>
      }
    >
      <form id={formId} className="stack" onSubmit={(event) => void remove(event)} noValidate>
        {askPassword && (
          <CurrentPasswordField
            inputRef={passwordRef}
            value={password}
            onChange={setPassword}
            disabled={busy}
          />
        )}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}

/**
 * Security keys as a list: label (nickname, or the credential id's first 8 characters), added,
 * last used, and a Remove button. Loading the keys and confirming a removal are the caller's.
 */
export function SecurityKeyList({
  credentials,
  listLabel,
  listClassName,
  block,
  emptyClassName,
  smallButtonClassName,
  onRemove,
}: SecurityKeyListProps) {
  if (credentials.length === 0) return <p className={emptyClassName}>{NO_KEYS}</p>;
  return (
    <ul className={listClassName} aria-label={listLabel}>
      {credentials.map((credential) => {
        const label = credentialLabel(credential);
        return (
          <li key={credential.id} className={`${block}__item`}>
            <span className={`${block}__icon`} aria-hidden="true">
              <KeyIcon />
            </span>
            <div className={`${block}__body`}>
              <p className={`${block}__name`}>{label}</p>
              <p className={`${block}__meta`}>
                <span>Added {formatDateTime(credential.createdAt)}</span>
                <span>
                  {credential.lastUsedAt
                    ? `Last used ${formatDateTime(credential.lastUsedAt)}`
                    : 'Never used'}
                </span>
              </p>
            </div>
            <button
              type="button"
              className={`button button--danger-quiet ${smallButtonClassName}`}
              onClick={() => onRemove(credential)}
              aria-label={`Remove ${label}`}
            >
              <TrashIcon />
              Remove
            </button>
          </li>
        );
      })}
    </ul>
  );
}
