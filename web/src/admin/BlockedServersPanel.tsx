import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import {
  createDomainBlock,
  deleteDomainBlock,
  fetchDomainBlocks,
  type DomainBlock,
} from '../api/domain-blocks.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { formatDateTime } from '../people/dates.ts';
import { ConfirmAction } from '../ui/ConfirmAction.tsx';
import { Field } from '../ui/Field.tsx';
import { GlobeIcon } from '../ui/icons.tsx';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import '../ui/account-list.css';
import './blocked-servers.css';

/** GET /domain-blocks in the query cache (this section only). */
const BLOCKS_KEY = ['domain-blocks'] as const;

export const SERVER_BLOCKED = 'Server blocked';
export const BLOCK_LIFTED = 'Block lifted';

/**
 * The Admin Console's 'Blocked servers' section: block a server by its host (with a note for
 * the admins), the list of blocked servers, and lifting a block. Blocking ends every follow
 * with the server's accounts and removes their entries from the feeds; the server checks and
 * normalises the host and says what is wrong with one it refuses. Lifting a block asks first.
 */
export function BlockedServersPanel() {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: BLOCKS_KEY, queryFn: fetchDomainBlocks });
  const [domain, setDomain] = useState('');
  const [note, setNote] = useState('');
  const domainRef = useRef<HTMLInputElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  useKeepFocus(sectionRef);
  /** The block whose lifting waits for 'Yes, unblock'. */
  const [confirming, setConfirming] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: BLOCKS_KEY });
  const blocking = useMutation({
    mutationFn: () => createDomainBlock(domain, note),
    onSuccess: (block) => {
      setDomain('');
      setNote('');
      notifySuccess(`${SERVER_BLOCKED}: ${block.domain}`);
    },
    // The refusal is the field's error (described by it); focus takes the reader there.
    onError: () => domainRef.current?.focus(),
    onSettled: refresh,
  });
  const lifting = useMutation({
    mutationFn: (block: DomainBlock) => deleteDomainBlock(block.id),
    onSuccess: (_done, block) => notifySuccess(`${BLOCK_LIFTED}: ${block.domain}`),
    onError: () => setConfirming(null),
    onSettled: refresh,
  });
  const blocks = query.data ?? null;
  const blockError = blocking.error ? messageOf(blocking.error, 'Failed to block the server') : '';
  const error = lifting.error
    ? messageOf(lifting.error, 'Failed to lift the block')
    : query.error
      ? messageOf(query.error, 'Unable to load the blocked servers')
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocking.isPending) blocking.mutate();
  };

  return (
    <section ref={sectionRef} className="panel admin-panel admin-blocked" aria-labelledby={titleId}>
      <div className="admin-panel__header">
        <h2 id={titleId} className="panel__title admin-panel__title">
          <span className="admin-panel__icon" aria-hidden="true">
            <GlobeIcon />
          </span>
          Blocked servers
        </h2>
      </div>
      <p className="admin-panel__intro">
        The vault takes nothing from a blocked server and sends nothing there. Blocking one ends
        every follow with its accounts and removes their entries from the feeds.
      </p>
      <form className="admin-blocked__form" onSubmit={submit} noValidate>
        <Field
          label="Server"
          name="domain"
          inputRef={domainRef}
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
          placeholder="spam.example"
          autoComplete="off"
          spellCheck={false}
          required
          error={blockError || undefined}
          hint="Its host name, with :port only to block one port."
        />
        <Field
          label="Note (optional)"
          name="note"
          value={note}
          maxLength={500}
          onChange={(event) => setNote(event.target.value)}
          hint="Why it is blocked, for the admins."
        />
        <button
          type="submit"
          className="button button--danger admin-blocked__submit"
          disabled={blocking.isPending || domain.trim() === ''}
        >
          {blocking.isPending ? 'Blocking…' : 'Block server'}
        </button>
      </form>
      {blocks === null && !error && <p className="list-status">Loading blocked servers…</p>}
      {blocks !== null &&
        (blocks.length === 0 ? (
          <p className="account-panel__muted">No server is blocked.</p>
        ) : (
          <ul className="account-list" aria-label="Blocked servers">
            {blocks.map((block) => (
              <li key={block.id} className="account-list__item account-list__item--wraps">
                <div className="account-list__body">
                  <p className="account-list__name admin-blocked__domain">{block.domain}</p>
                  <p className="account-list__meta">
                    {block.note && <span>{block.note}</span>}
                    <span>Blocked {formatDateTime(block.createdAt)}</span>
                  </p>
                </div>
                {confirming === block.id ? (
                  <ConfirmAction
                    question={`Unblock ${block.domain}? The vault takes from it and sends to it again.`}
                    confirmLabel="Yes, unblock"
                    busy={lifting.isPending}
                    onCancel={() => setConfirming(null)}
                    onConfirm={() => lifting.mutate(block)}
                  />
                ) : (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    disabled={lifting.isPending}
                    onClick={() => setConfirming(block.id)}
                    aria-label={`Unblock ${block.domain}`}
                  >
                    Unblock
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </section>
  );
}
