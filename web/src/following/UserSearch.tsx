import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode, Ref } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import { searchUsers, USER_SEARCH_MIN_LENGTH } from '../api/social.ts';
import type { UserSearchResult } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { SearchIcon } from '../ui/icons.tsx';
import { useDebounce } from '../ui/useDebounce.ts';
import './user-search.css';

export const SEARCH_HINT = 'Enter at least two characters to search.';
export const NO_USERS_FOUND = 'No users found.';

interface UserSearchProps {
  /** The input's visible label. */
  label: string;
  /** Called with the result the user chose (click, Enter or Space on it). */
  onChoose: (user: UserSearchResult) => void;
  /** A short tag beside a result ('Following', 'Shared'), or null for none. */
  tagOf?: (user: UserSearchResult) => string | null;
  /** Results that cannot be chosen (already followed, say): shown, marked, not a button. */
  isUnavailable?: (user: UserSearchResult) => boolean;
  /** Whether choosing is under way (every result is disabled meanwhile). */
  busy?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** Shown under the results (an error of the caller's, say). */
  children?: ReactNode;
}

/**
 * Searches the vault's local users (GET /users/search) as the user types: the text is trimmed
 * and sent 300 ms after the last keystroke; under two characters the results clear and a hint
 * shows. Results are buttons: ArrowDown from the input goes to the first, ArrowUp and ArrowDown
 * move between them, Enter or Space chooses one, Escape is left to the surrounding dialog.
 */
export function UserSearch({
  label,
  onChoose,
  tagOf,
  isUnavailable,
  busy = false,
  inputRef,
  children,
}: UserSearchProps) {
  const inputId = useId();
  const hintId = useId();
  const resultsId = useId();
  const [text, setText] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  const trimmed = text.trim();
  const settled = useDebounce(trimmed);
  const longEnough = trimmed.length >= USER_SEARCH_MIN_LENGTH;
  const q = longEnough && settled.length >= USER_SEARCH_MIN_LENGTH ? settled : '';

  const search = useQuery({
    queryKey: queryKeys.userSearch.query(q),
    queryFn: ({ signal }) => searchUsers(q, signal),
    enabled: q !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

  const results = longEnough && q !== '' ? (search.data ?? []) : [];
  const waiting = longEnough && (q === '' || search.isPending);

  const buttons = () =>
    Array.from(
      listRef.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [],
    );

  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      const first = buttons()[0];
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'Enter') {
      // Enter in the box never submits a surrounding form; it chooses a lone result.
      event.preventDefault();
      const choosable = results.filter((user) => !isUnavailable?.(user));
      if (choosable.length === 1 && !busy) onChoose(choosable[0]!);
    }
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const all = buttons();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    event.preventDefault();
    if (event.key === 'ArrowDown') all[Math.min(index + 1, all.length - 1)]?.focus();
    else if (index === 0) document.getElementById(inputId)?.focus();
    else all[index - 1]?.focus();
  };

  let status: ReactNode = null;
  if (!longEnough) status = <p className="user-search__hint">{SEARCH_HINT}</p>;
  else if (search.isError && q !== '')
    status = (
      <p className="form-error" role="alert">
        {messageOf(search.error, 'The search failed')}
      </p>
    );
  else if (waiting) status = <p className="user-search__hint">Searching…</p>;
  else if (results.length === 0) status = <p className="empty-state">{NO_USERS_FOUND}</p>;

  return (
    <div className="user-search">
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          {label}
        </label>
        <div className="user-search__box">
          <SearchIcon />
          <input
            ref={inputRef}
            id={inputId}
            className="field__input user-search__input"
            type="search"
            autoComplete="off"
            spellCheck={false}
            placeholder="Name or username"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onInputKeyDown}
            aria-describedby={hintId}
            aria-controls={resultsId}
          />
        </div>
      </div>
      <div id={hintId} className="user-search__status" role="status">
        {status}
      </div>
      <ul
        id={resultsId}
        ref={listRef}
        className="user-search__results"
        aria-label="Search results"
        onKeyDown={onListKeyDown}
        hidden={results.length === 0}
      >
        {results.map((user) => {
          const tag = tagOf?.(user) ?? null;
          const unavailable = isUnavailable?.(user) ?? false;
          const body = (
            <>
              <Avatar user={user} />
              <span className="user-search__who">
                <span className="user-search__name">{user.fullName || user.username}</span>
                <span className="user-search__username">@{user.username}</span>
              </span>
              {tag && <span className="tag tag--muted">{tag}</span>}
            </>
          );
          return (
            <li key={user.id}>
              {unavailable ? (
                <div className="user-search__result user-search__result--unavailable">{body}</div>
              ) : (
                <button
                  type="button"
                  className="user-search__result"
                  onClick={() => onChoose(user)}
                  disabled={busy}
                >
                  {body}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {children}
    </div>
  );
}
