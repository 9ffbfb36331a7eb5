import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { UserSummary } from '../api/types.ts';
import { formatDate } from '../people/dates.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { GlobeIcon } from '../ui/icons.tsx';

// One person of the following and followers lists, local or from the fediverse.

/** Since when: 'Since Mar 3, 2025'. */
function Since({ iso }: { iso: string }) {
  const date = formatDate(iso);
  if (!date) return null;
  return (
    <span className="person__since">
      Since <time dateTime={iso}>{date}</time>
    </span>
  );
}

/** A local user: avatar, full name linking to their profile, @username and since when. */
export function LocalPerson({
  user,
  since,
  action,
}: {
  user: UserSummary;
  since: string;
  action?: ReactNode;
}) {
  return (
    <li className="person">
      <Avatar user={user} />
      <div className="person__who">
        <Link href={`/users/${encodeURIComponent(user.username)}`} className="person__name">
          {user.fullName || user.username}
        </Link>
        <span className="person__meta">
          <span className="person__username">@{user.username}</span>
          <Since iso={since} />
        </span>
      </div>
      {action}
    </li>
  );
}

/**
 * A fediverse account: display name, handle or actor URI, and summary, all rendered as text
 * (never as HTML); no profile page here. `tag` and `action` as for local people.
 */
export function FederatedPerson({
  name,
  actorUri,
  label,
  summary,
  since,
  tag,
  action,
  note,
}: {
  name: string;
  actorUri: string;
  /** What the link to the account says: its handle, else its actor URI. */
  label?: string | null;
  summary: string;
  since: string;
  tag?: ReactNode;
  action?: ReactNode;
  /** A line of text under the summary (what arrives from the account). */
  note?: ReactNode;
}) {
  return (
    <li className="person person--federated">
      <Avatar user={{ fullName: name, username: name, avatarPath: null }} />
      <div className="person__who">
        <span className="person__name">{name}</span>
        <span className="person__meta">
          <GlobeIcon />
          <a className="person__actor" href={actorUri} rel="noopener noreferrer">
            {label ?? actorUri}
          </a>
          <Since iso={since} />
        </span>
        {summary && <p className="person__summary">{summary}</p>}
        {note}
      </div>
      {tag}
      {action}
    </li>
  );
}
