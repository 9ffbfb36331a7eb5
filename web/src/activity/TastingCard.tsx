import { useId } from 'react';
import { Link } from 'wouter';
import type { TastingActivityItem } from '../api/types.ts';
import { formatDateTime } from '../people/dates.ts';

/**
 * A tasting in the feed, minimal: "Alice opened a bottle of Lagavulin 16 — ★4" (or "tasted",
 * when it was not from a bottle), its notes and photo.
 */
export function TastingCard({ item }: { item: TastingActivityItem }) {
  const { actor, tasting, beverage: entry } = item;
  const nameId = useId();
  const when = formatDateTime(item.createdAt);
  return (
    <article className="activity-card activity-card--tasting" aria-labelledby={nameId}>
      <p className="activity-card__who" id={nameId}>
        <Link
          href={`/users/${encodeURIComponent(actor.username)}`}
          className="activity-card__actor"
        >
          {actor.fullName || actor.username}
        </Link>{' '}
        {tasting.opened ? 'opened a bottle of' : 'tasted'} <strong>{entry.name}</strong>
        {tasting.vintage !== null && ` ${tasting.vintage}`}
        {tasting.rating !== null && (
          <span aria-label={`, rated ${tasting.rating} of 5`}> — ★{tasting.rating}</span>
        )}
        {when && (
          <>
            {' · '}
            <time dateTime={item.createdAt}>{when}</time>
          </>
        )}
      </p>
      {tasting.photoPath && (
        <span className="entry-card__thumb">
          <img src={`/${tasting.photoPath}`} alt="" loading="lazy" decoding="async" />
        </span>
      )}
      {tasting.notes && <p className="entry-card__notes">{tasting.notes}</p>}
    </article>
  );
}
