import { useId, useState } from 'react';
import { Link } from 'wouter';
import type { ActivityItem } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { formatDateTime } from '../people/dates.ts';
import { CheckIcon } from '../ui/icons.tsx';
import { StarRating } from '../vault/StarRating.tsx';
import { EntryThumb } from '../vault/EntryThumb.tsx';
import '../vault/entry-card.css';
import { addedToVault, useAddToVault, type LocalItem } from './feed.ts';
import { RemoteActivityCard } from './RemoteActivityCard.tsx';

/** One item of the feed: an entry of a local user, or one received from a remote vault. */
export function ActivityCard({ item }: { item: ActivityItem }) {
  return item.kind === 'remote' ? (
    <RemoteActivityCard item={item} />
  ) : (
    <LocalActivityCard item={item} />
  );
}

/**
 * An entry of a local user: who logged which entry and when, the entry read-only (name, type,
 * subtype, maker, rating, notes, photo) and 'Add to vault'.
 */
function LocalActivityCard({ item }: { item: LocalItem }) {
  const { beverage: entry, actor } = item;
  const nameId = useId();
  const kind = BEVERAGE_KINDS[entry.type];
  const { notifySuccess, notifyError } = useNotes();
  const add = useAddToVault();
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
    <article className="activity-card" aria-labelledby={nameId}>
      <p className="activity-card__who">
        <Link
          href={`/users/${encodeURIComponent(actor.username)}`}
          className="activity-card__actor"
        >
          {actor.fullName || actor.username}
        </Link>{' '}
        logged {toTry ? 'a beverage to try' : 'a beverage'}
        {when && (
          <>
            {' · '}
            <time dateTime={item.createdAt}>{when}</time>
          </>
        )}
      </p>
      <div className="activity-card__entry">
        <EntryThumb entry={entry} />
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
