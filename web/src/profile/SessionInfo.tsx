import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endSession, fetchSessions } from '../api/profile.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { SessionInfo as Session } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Panel, PanelError } from './Panel.tsx';
import { formatDateTime } from '../people/dates.ts';
import { describeUserAgent } from './rules.ts';
import '../ui/account-list.css';

export const SESSION_ENDED = 'Session ended';
export const OTHER_SESSIONS_ENDED = 'Signed out of every other session';

function OtherSession({
  session,
  busy,
  onEnd,
}: {
  session: Session;
  busy: boolean;
  onEnd: (session: Session) => void;
}) {
  const browser = describeUserAgent(session.userAgent);
  return (
    <li className="account-list__item">
      <div className="account-list__body">
        <p className="account-list__name" title={session.userAgent ?? undefined}>
          {browser}
        </p>
        <p className="account-list__meta">
          {session.ipAddress ? <span>{session.ipAddress}</span> : null}
          <span>Last used {formatDateTime(session.lastSeenAt)}</span>
        </p>
      </div>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => onEnd(session)}
        disabled={busy}
        aria-label={`Sign out ${browser}, last used ${formatDateTime(session.lastSeenAt)}`}
      >
        Sign out
      </button>
    </li>
  );
}

/**
 * When this session started and expires, and the user's other live sessions with a way to end
 * each. `version` changes when something (a password change) may have ended sessions.
 */
export function SessionInfo({ version }: { version: number }) {
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  // A new version asks again, showing the sessions known so far meanwhile.
  const query = useQuery({
    queryKey: [...queryKeys.sessions, version],
    queryFn: fetchSessions,
    placeholderData: keepPreviousData,
  });
  const ending = useMutation({
    mutationFn: async ({ targets }: { targets: Session[]; message: string }) => {
      for (const target of targets) await endSession(target.id);
    },
    onSuccess: (_, { message }) => notifySuccess(message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
  const end = (targets: Session[], message: string) => ending.mutate({ targets, message });
  const busy = ending.isPending;
  const sessions = query.data ?? null;
  const error = ending.error
    ? messageOf(ending.error, 'Failed to end the session')
    : query.error
      ? messageOf(query.error, 'Unable to load sessions')
      : null;

  const current = sessions?.find((session) => session.current) ?? null;
  const others = sessions?.filter((session) => !session.current) ?? [];

  return (
    <Panel title="Session info">
      {sessions === null && !error && <p className="list-status">Loading sessions…</p>}
      {current && (
        <dl className="account-facts">
          <div>
            <dt>This session started</dt>
            <dd>{formatDateTime(current.createdAt)}</dd>
          </div>
          <div>
            <dt>It expires</dt>
            <dd>{formatDateTime(current.expiresAt)}</dd>
          </div>
          <div>
            <dt>Browser</dt>
            <dd title={current.userAgent ?? undefined}>{describeUserAgent(current.userAgent)}</dd>
          </div>
        </dl>
      )}
      {sessions !== null && (
        <>
          <h3 className="account-panel__subtitle">Other active sessions</h3>
          {others.length === 0 ? (
            <p className="account-panel__muted">You are not signed in anywhere else.</p>
          ) : (
            <>
              <ul className="account-list" aria-label="Other active sessions">
                {others.map((session) => (
                  <OtherSession
                    key={session.id}
                    session={session}
                    busy={busy}
                    onEnd={(target) => end([target], SESSION_ENDED)}
                  />
                ))}
              </ul>
              {others.length > 1 && (
                <div className="account-panel__actions">
                  <button
                    type="button"
                    className="button button--danger-quiet"
                    onClick={() => end(others, OTHER_SESSIONS_ENDED)}
                    disabled={busy}
                  >
                    Sign out everywhere else
                  </button>
                </div>
              )}
            </>
          )}
        </>
      )}
      <PanelError message={error} />
    </Panel>
  );
}
