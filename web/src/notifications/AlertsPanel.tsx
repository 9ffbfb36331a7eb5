import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RefObject } from 'react';
import { Link } from 'wouter';
import { respondToNotification } from '../api/notifications.ts';
import type { Answer } from '../api/notifications.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { RespondResult, VaultNotification } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import {
  choicesFor,
  describe,
  linkOf,
  NO_NOTIFICATIONS,
  outcomeOf,
  staleAfter,
  withAnswered,
} from './answers.ts';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import type { Notifications } from './useNotifications.ts';
import './alerts.css';

interface Variables {
  notification: VaultNotification;
  answer: Answer;
  note?: string;
}

/** One notification: who did what, the message, then its buttons or how it was answered. */
function AlertItem({ notification }: { notification: VaultNotification }) {
  const queryClient = useQueryClient();
  const { notifySuccess } = useNotes();
  const [error, setError] = useState<string | null>(null);
  const respond = useMutation<RespondResult, Error, Variables>({
    mutationFn: ({ notification: item, answer }) => respondToNotification(item.id, answer),
    onMutate: () => setError(null),
    onSuccess: (result, { notification: item, answer, note }) => {
      queryClient.setQueryData<VaultNotification[]>(queryKeys.notifications, (list) =>
        withAnswered(list, result.notification),
      );
      for (const queryKey of staleAfter(item, answer)) {
        void queryClient.invalidateQueries({ queryKey });
      }
      if (note) notifySuccess(note);
    },
    onError: (caught) => setError(messageOf(caught, 'The answer could not be sent')),
    // The badge and the list from the server again, whatever the outcome (not waited for: the
    // buttons of a refused answer come back at once).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
  const outcome = outcomeOf(notification);
  const text = describe(notification);
  const message = notification.payload.message;
  const link = linkOf(notification);
  // The entry's name follows the link's text for those who hear the link out of its sentence;
  // a post elsewhere opens in a new tab, which its name says.
  const linkTo =
    link &&
    (link.external ? (
      <a
        href={link.href}
        className="button button--secondary"
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`${link.label} on ${new URL(link.href).host} (opens in a new tab)`}
      >
        {link.label}
      </a>
    ) : (
      <Link
        href={link.href}
        className="button button--secondary"
        aria-label={`${link.label}: ${notification.beverage?.name ?? ''}`}
      >
        {link.label}
      </Link>
    ));

  return (
    <li className={`alerts__item${outcome ? ' alerts__item--answered' : ''}`}>
      <p className="alerts__text">{text}</p>
      {message && <p className="alerts__message">“{message}”</p>}
      {outcome ? (
        <>
          <p className="alerts__outcome">{outcome}</p>
          {linkTo && <div className="alerts__actions">{linkTo}</div>}
        </>
      ) : (
        <div className="alerts__actions" role="group" aria-label={text}>
          {linkTo}
          {choicesFor(notification).map(({ label, answer, note, primary }) => (
            <button
              key={label}
              type="button"
              className={`button ${primary ? 'button--primary' : 'button--secondary'}`}
              disabled={respond.isPending}
              aria-busy={respond.isPending && respond.variables?.answer === answer}
              onClick={() => respond.mutate({ notification, answer, note })}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {error && (
        <p role="alert" className="form-error alerts__error">
          {error}
        </p>
      )}
    </li>
  );
}

/**
 * The Alerts panel's content: the notifications, newest first, each with its answers. An answer
 * puts its outcome in place of the buttons: focus stays in `scope` (the header's Alerts popover,
 * kept here so that the focus code loads with the panel, not in the first download).
 */
export function AlertsPanel({
  notifications,
  loading,
  error,
  scope,
}: Notifications & { scope: RefObject<HTMLElement | null> }) {
  useKeepFocus(scope);
  return (
    <>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {notifications.length === 0 ? (
        !error && (
          <p className="empty-state" role="status">
            {loading ? 'Loading…' : NO_NOTIFICATIONS}
          </p>
        )
      ) : (
        <ul className="alerts__list">
          {notifications.map((notification) => (
            <AlertItem key={notification.id} notification={notification} />
          ))}
        </ul>
      )}
    </>
  );
}
