import { RATING_MAX } from '../beverages.ts';
import { StarIcon } from '../ui/icons.tsx';
import './entry-card.css';

/** A rating as five stars, read out as 'Rated 4 out of 5'. To-try entries read 'Pending'. */
export function StarRating({ rating, pending = false }: { rating: number; pending?: boolean }) {
  if (pending) return <span className="pending-pill">Pending</span>;
  return (
    <span className="stars" role="img" aria-label={`Rated ${rating} out of ${RATING_MAX}`}>
      {Array.from({ length: RATING_MAX }, (_, index) => (
        <StarIcon key={index} filled={index < rating} />
      ))}
    </span>
  );
}
