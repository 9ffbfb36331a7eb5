import { useId, useState, type ReactNode } from 'react';
import type { ActivityItem } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { ConversationBar } from '../conversation/ConversationBar.tsx';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { formatDateTime } from '../people/dates.ts';
import { CheckIcon } from '../ui/icons.tsx';
import { StarRating } from '../vault/StarRating.tsx';
import '../vault/entry-card.css';
import { addedToVault, useAddToVault } from './feed.ts';

/** What a feed card shows of an entry, local or remote (with its cheers and comments). */
type FeedEntry = Pick<
  ActivityItem['beverage'],
  | 'id'
  | 'type'
  | 'name'
  | 'subtype'
  | 'makerName'
  | 'rating'
  | 'notes'
  | 'status'
  | 'cheerCount'
  | 'cheeredByMe'
  | 'commentCount'
>;

/**
 * One entry of the feed, read-only: who logged it and when (`who`: the actor, as the caller
 * shows them), the photo or type icon (`thumb`), name, type, subtype, maker, rating and notes as
 * text, its cheers and comments, and 'Add to vault', which copies it into the caller's vault. A
 * remote entry is also marked 'View only': it lives on another server.
 */
export function FeedEntryCard(props: {
  kind: 'local' | 'remote';
  who: ReactNode;
  createdAt: string;
  entry: FeedEntry;
  thumb: ReactNode;
  /** What the actor did, when not logging it (a remote vault's tasting: "opened a bottle"). */
  did?: string | undefined;
}) {
  const { kind, entry } = props;
  const nameId = useId();
  const labels = BEVERAGE_KINDS[entry.type];
  const { notifySuccess, notifyError } = useNotes();
  const add = useAddToVault(kind);
  const [added, setAdded] = useState(false);
  const when = formatDateTime(props.createdAt);
  const toTry = entry.status === 'TO_TRY';
  const addLabel = add.isPending ? 'Adding…' : 'Add to vault';

  const addToVault = () =>
    add.mutate(entry, {
      onSuccess: (copy) => {
        setAdded(true);
        notifySuccess(addedToVault(copy));
      },
      onError: (caught) => notifyError(messageOf(caught, 'Failed to add the beverage')),
    });

  return (
    <article
      className={kind === 'remote' ? 'activity-card activity-card--remote' : 'activity-card'}
      aria-labelledby={nameId}
    >
      <p className="activity-card__who">
        {props.who} {props.did ?? `logged ${toTry ? 'a beverage to try' : 'a beverage'}`}
        {when && (
          <>
            {' · '}
            <time dateTime={props.createdAt}>{when}</time>
          </>
        )}
      </p>
      <div className="activity-card__entry">
        {props.thumb}
        <div className="entry-card__body">
          <h2 id={nameId} className="entry-card__name activity-card__name">
            {entry.name}
          </h2>
          <p className="entry-card__meta">
            <span className="entry-card__type">{labels.label} · </span>
            <span>{entry.subtype}</span>
            {entry.makerName && (
              <span className="entry-card__maker">
                {' · '}
                <span className="entry-card__maker-label">{labels.makerLabel}:</span>{' '}
                {entry.makerName}
              </span>
            )}
          </p>
          <StarRating rating={entry.rating} pending={toTry} />
          {entry.notes && <p className="entry-card__notes">{entry.notes}</p>}
        </div>
      </div>
      <div className="activity-card__actions">
        <ConversationBar target={{ kind, id: entry.id }} name={entry.name} counts={entry} />
        <span className="activity-card__spacer" />
        {kind === 'remote' && <span className="tag tag--muted">View only</span>}
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
            // The visible label first, then the entry (label in name: speech input finds it).
            aria-label={`${addLabel}: ${entry.name}`}
          >
            {addLabel}
          </button>
        )}
      </div>
    </article>
  );
}
