import { useId, useState } from 'react';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { formatDateTime } from '../people/dates.ts';
import { CheckIcon } from '../ui/icons.tsx';
import { StarRating } from '../vault/StarRating.tsx';
import { TypeIcon } from '../vault/TypeIcon.tsx';
import '../vault/entry-card.css';
import { addedToVault, useAddRemoteToVault, type RemoteItem } from './feed.ts';

/**
 * An entry received from a remote vault actor someone follows: the actor with their
 * '@name@host' handle, the entry read-only ('View only': it lives on the other server) and
 * 'Add to vault', which copies it into the caller's vault. Every piece of text came from another
 * server and is rendered as text, never as HTML; the photo is the vault's own copy.
 */
export function RemoteActivityCard({ item }: { item: RemoteItem }) {
  const { beverage: entry, actor } = item;
  const nameId = useId();
  const kind = BEVERAGE_KINDS[entry.type];
  const { notifySuccess, notifyError } = useNotes();
  const add = useAddRemoteToVault();
  const [added, setAdded] = useState(false);
  const when = formatDateTime(item.createdAt);
  const toTry = entry.status === 'TO_TRY';

  const addToVault = () =>
    add.mutate(entry, {
      onSuccess: (copy) => {
        setAdded(true);
        notifySuccess(addedToVault(copy));
      },
      onError: (caught) => notifyError(messageOf(caught, 'Failed to add the beverage')),
    });

  return (
    <article className="activity-card activity-card--remote" aria-labelledby={nameId}>
      <p className="activity-card__who">
        <span className="activity-card__actor">{actor.fullName || actor.handle}</span>{' '}
        <span className="activity-card__handle">{actor.handle}</span> logged{' '}
        {toTry ? 'a beverage to try' : 'a beverage'}
        {when && (
          <>
            {' · '}
            <time dateTime={item.createdAt}>{when}</time>
          </>
        )}
      </p>
      <div className="activity-card__entry">
        {entry.photoPath ? (
          <span className="entry-card__thumb">
            <img src={`/${entry.photoPath}`} alt="" loading="lazy" decoding="async" />
          </span>
        ) : (
          <span
            className={`entry-card__thumb entry-card__thumb--empty type-${entry.type.toLowerCase()}`}
          >
            <TypeIcon type={entry.type} />
          </span>
        )}
        <div className="entry-card__body">
          <h2 id={nameId} className="entry-card__name activity-card__name">
            {entry.name}
          </h2>
          <p className="entry-card__meta">
            <span className="entry-card__type">{kind.label} · </span>
            <span>{entry.subtype}</span>
            {entry.makerName && (
              <span className="entry-card__maker">
                {' · '}
                <span className="entry-card__maker-label">{kind.makerLabel}:</span>{' '}
                {entry.makerName}
              </span>
            )}
          </p>
          <StarRating rating={entry.rating} pending={toTry} />
          {entry.notes && <p className="entry-card__notes">{entry.notes}</p>}
        </div>
      </div>
      <div className="activity-card__actions">
        <span className="tag tag--muted">View only</span>
        {added ? (
          <span className="tag tag--muted">
            <CheckIcon />
            In your vault
          </span>
        ) : (
          <button
            type="button"
            className="button button--secondary"
            onClick={addToVault}
            disabled={add.isPending}
            aria-label={`Add ${entry.name} to vault`}
          >
            {add.isPending ? 'Adding…' : 'Add to vault'}
          </button>
        )}
      </div>
    </article>
  );
}
