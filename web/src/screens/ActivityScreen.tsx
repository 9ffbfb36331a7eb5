import '../activity/activity.css';
import { ActivityCard } from '../activity/ActivityCard.tsx';
import { useActivityFeed } from '../activity/feed.ts';
import { messageOf } from '../notes/notes.tsx';
import { Screen } from './Screen.tsx';

export const NO_ACTIVITY = 'No recent activity from people you follow yet.';

/** /activity: the entries newly logged by the people the user follows, newest first. */
export function ActivityScreen() {
  const feed = useActivityFeed();
  let body;
  if (feed.isPending) {
    body = (
      <p className="list-status" role="status">
        Loading…
      </p>
    );
  } else if (feed.isError && feed.items.length === 0) {
    body = (
      <div className="list-error">
        <p role="alert" className="form-error">
          {messageOf(feed.error, 'Unable to load the activity feed.')}
        </p>
        <button type="button" className="button button--secondary" onClick={() => feed.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (feed.items.length === 0) {
    body = <p className="empty-state">{NO_ACTIVITY}</p>;
  } else {
    body = (
      <>
        <ul className="activity-feed" aria-label="Recent activity">
          {feed.items.map((item) => (
            <li key={item.id}>
              <ActivityCard item={item} />
            </li>
          ))}
        </ul>
        {feed.isFetchNextPageError && (
          <p role="alert" className="form-error">
            {messageOf(feed.error, 'Unable to load more activity.')}
          </p>
        )}
        {feed.hasNextPage && (
          <div className="load-more">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void feed.fetchNextPage()}
              disabled={feed.isFetchingNextPage}
              aria-busy={feed.isFetchingNextPage}
            >
              {feed.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          </div>
        )}
      </>
    );
  }
  return <Screen title="Activity">{body}</Screen>;
}
