import { Link } from 'wouter';
import type { ActivityItem } from '../api/types.ts';
import { EntryThumb } from '../vault/EntryThumb.tsx';
import { TypeIcon } from '../vault/TypeIcon.tsx';
import { FeedEntryCard } from './FeedEntryCard.tsx';
import { TastingCard } from './TastingCard.tsx';

/**
 * One item of the feed: an entry of a local user (the actor links to their profile), or one
 * received from a remote vault actor (shown with their '@name@host' handle; every piece of its
 * text came from another server and is rendered as text, never as HTML; the photo is the
 * vault's own copy), or a tasting of a local user's entry (TastingCard).
 */
export function ActivityCard({ item }: { item: ActivityItem }) {
  if (item.kind === 'tasting') return <TastingCard item={item} />;
  if (item.kind === 'remote') {
    const { actor, beverage: entry } = item;
    return (
      <FeedEntryCard
        kind="remote"
        createdAt={item.createdAt}
        entry={entry}
        did={
          entry.tasting
            ? `${entry.tasting.opened ? 'opened a bottle' : 'tasted'} (${entry.tasting.tastedOn})`
            : undefined
        }
        who={
          <>
            <span className="activity-card__actor">{actor.fullName || actor.handle}</span>{' '}
            <span className="activity-card__handle">{actor.handle}</span>
          </>
        }
        thumb={
          entry.photoPath ? (
            <span className="entry-card__thumb">
              <img src={`/${entry.photoPath}`} alt="" loading="lazy" decoding="async" />
            </span>
          ) : (
            <span
              className={`entry-card__thumb entry-card__thumb--empty type-${entry.type.toLowerCase()}`}
            >
              <TypeIcon type={entry.type} />
            </span>
          )
        }
      />
    );
  }
  const { actor, beverage: entry } = item;
  return (
    <FeedEntryCard
      kind="local"
      createdAt={item.createdAt}
      entry={entry}
      who={
        <Link
          href={`/users/${encodeURIComponent(actor.username)}`}
          className="activity-card__actor"
        >
          {actor.fullName || actor.username}
        </Link>
      }
      thumb={<EntryThumb entry={entry} />}
    />
  );
}
