import { Suspense, useId, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { BeverageStatus, BeverageType } from '../api/types.ts';
import { BEVERAGE_KINDS, BEVERAGE_TYPES } from '../beverages.ts';
import { ArrowRightIcon, SearchIcon } from '../ui/icons.tsx';
import { lazyNamed } from '../ui/lazy.tsx';
import { useDebounce } from '../ui/useDebounce.ts';
import { EntryFromAlert } from '../notifications/EntryFromAlert.tsx';
import { EntryList, NO_ENTRIES, noMatches } from '../vault/EntryList.tsx';
import { LogEntryForm } from '../vault/LogEntryForm.tsx';
import { TypeIcon } from '../vault/TypeIcon.tsx';
import { useBeverageList } from '../vault/useBeverageList.ts';
import { Screen } from './Screen.tsx';
import './dashboard.css';

// A small piece of its own, fetched after the dashboard: how many bottles are past their window.
const PastWindowNotice = lazyNamed(
  () => import('../cellar/PastWindowNotice.tsx'),
  'PastWindowNotice',
);

/** The dashboard shows 4 cards per list. */
export const DASHBOARD_CARDS = 4;

/** One list of a vault panel: the newest four, and a link to the whole archive. */
function PanelList({
  type,
  status,
  query,
}: {
  type: BeverageType;
  status: BeverageStatus;
  query: string;
}) {
  const titleId = useId();
  const kind = BEVERAGE_KINDS[type];
  const list = useBeverageList(
    { type, status, ...(query && { q: query }) },
    { pageSize: DASHBOARD_CARDS, fixed: true },
  );
  const tried = status === 'TRIED';
  return (
    <section className="vault-list" aria-labelledby={titleId}>
      <div className="vault-list__header">
        <h3 id={titleId} className="vault-list__title">
          {tried ? 'Tried' : 'To try'}
        </h3>
        <Link href={kind.path} className="vault-list__link">
          {tried ? 'See all' : 'View all'}
          <ArrowRightIcon />
        </Link>
      </div>
      <EntryList
        list={list}
        layout="stack"
        headingLevel={4}
        empty={query ? noMatches(query) : NO_ENTRIES}
      />
    </section>
  );
}

/** A vault panel: one type's tried and to-try lists side by side. */
function VaultPanel({ type, query }: { type: BeverageType; query: string }) {
  const titleId = useId();
  const kind = BEVERAGE_KINDS[type];
  return (
    <section className={`panel vault-panel type-${type.toLowerCase()}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title vault-panel__title">
        <span className="vault-panel__icon" aria-hidden="true">
          <TypeIcon type={type} />
        </span>
        {kind.label}
      </h2>
      <div className="vault-panel__lists">
        <PanelList type={type} status="TRIED" query={query} />
        <PanelList type={type} status="TO_TRY" query={query} />
      </div>
    </section>
  );
}

/**
 * /: the search box, the 'Log a new beverage' form and a vault panel per type; /?entry={id} shows
 * that entry first, its thread open (where a cheer's or comment's alert leads).
 */
export function DashboardScreen() {
  const [search, setSearch] = useState('');
  // Debounced by 300 ms, trimmed, and sent only if non-empty.
  const query = useDebounce(search).trim();
  const searchId = useId();
  const alertEntry = Number(new URLSearchParams(useSearch()).get('entry'));

  return (
    <Screen title="Dashboard">
      <form role="search" className="vault-search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={searchId} className="visually-hidden">
          Search the vault
        </label>
        <SearchIcon />
        <input
          id={searchId}
          type="search"
          className="vault-search__input"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search by name, subtype, maker or notes"
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
        />
      </form>
      <p className="visually-hidden" role="status">
        {query ? `Showing entries matching "${query}"` : ''}
      </p>
      {/* The entry a cheer's or comment's alert leads to (/?entry={id}), its thread open. */}
      {Number.isSafeInteger(alertEntry) && alertEntry > 0 && <EntryFromAlert id={alertEntry} />}
      <Suspense fallback={null}>
        <PastWindowNotice />
      </Suspense>

      <div className="dashboard">
        <LogEntryForm />
        <div className="dashboard__panels">
          {BEVERAGE_TYPES.map((type) => (
            <VaultPanel key={type} type={type} query={query} />
          ))}
        </div>
      </div>
    </Screen>
  );
}
