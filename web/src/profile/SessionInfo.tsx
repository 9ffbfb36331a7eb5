import { useCallback, useEffect, useState } from 'react';
import { endSession, fetchSessions } from '../api/profile.ts';
import type { SessionInfo as Session } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Panel, PanelError } from './Panel.tsx';
import { formatDateTime } from '../people/dates.ts';
import { describeUserAgent } from './rules.ts';

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
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (isActive: () => boolean = () => true) => {
    try {
      const list = await fetchSessions();
      if (!isActive()) return;
      setSessions(list);
      setError(null);
    } catch (caught) {
      if (isActive()) setError(messageOf(caught, 'Unable to load sessions'));
    }
  }, []);

  useEffect(() => {
    let active = true;
    void load(() => active);
    return () => {
      active = false;
    };
  }, [load, version]);

  const end = async (targets: Session[], message: string) => {
    setBusy(true);
    setError(null);
    try {
      for (const target of targets) await endSession(target.id);
      notifySuccess(message);
    } catch (caught) {
      setError(messageOf(caught, 'Failed to end the session'));
    } finally {
      setBusy(false);
      await load();
    }
  };

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
                    onEnd={(target) => void end([target], SESSION_ENDED)}
                  />
                ))}
              </ul>
              {others.length > 1 && (
                <div className="account-panel__actions">
                  <button
                    type="button"
                    className="button button--danger-quiet"
                    onClick={() => void end(others, OTHER_SESSIONS_ENDED)}
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
