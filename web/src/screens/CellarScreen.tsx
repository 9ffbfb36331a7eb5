import { Suspense, useId } from 'react';
import type { BeverageStatus } from '../api/types.ts';
import { entryFilter } from '../cellar/api.ts';
import type { CellarFilter } from '../cellar/api.ts';
import { useCellar } from '../cellar/useCellar.ts';
import { useCellarViewState } from '../cellar/view-state.ts';
import { lazyNamed, ScreenLoading } from '../ui/lazy.tsx';
import { EntryList } from '../vault/EntryList.tsx';
import { ARCHIVE_PAGE_SIZE, useBeverageList } from '../vault/useBeverageList.ts';
import type { BeverageList } from '../vault/useBeverageList.ts';
import { Screen } from './Screen.tsx';
import './archive.css';

// Fetched when the screen shows them: a cellar with only the 'In cellar' flag needs neither.
const CellarTools = lazyNamed(() => import('../cellar/CellarTools.tsx'), 'CellarTools');
const CellarViews = lazyNamed(() => import('../cellar/CellarViews.tsx'), 'CellarViews');

export const CELLAR_EMPTY = 'Your cellar is empty...';
export const NO_MATCHES = 'Nothing in the cellar matches these filters.';

const GROUP_TITLES: Record<BeverageStatus, string> = {
  TRIED: 'Ready to pour',
  TO_TRY: 'Waiting to be opened',
};

const GROUP_EMPTY: Record<BeverageStatus, string> = {
  TRIED: 'Nothing opened and ready to pour.',
  TO_TRY: 'No unopened bottles.',
};

function CellarGroup({ status, list }: { status: BeverageStatus; list: BeverageList }) {
  const titleId = useId();
  return (
    <section className="archive-group" aria-labelledby={titleId}>
      <h2 id={titleId} className="archive-group__title">
        {GROUP_TITLES[status]}
      </h2>
      <EntryList list={list} empty={GROUP_EMPTY[status]} showType pageable />
    </section>
  );
}

/** 'Ready to pour' (tried) and 'Waiting to be opened', narrowed by the filter when one is set. */
function StatusGroups({ filter }: { filter: CellarFilter }) {
  const tried = useBeverageList(
    { cellar: true, status: 'TRIED', ...entryFilter(filter) },
    { pageSize: ARCHIVE_PAGE_SIZE },
  );
  const toTry = useBeverageList(
    { cellar: true, status: 'TO_TRY', ...entryFilter(filter) },
    { pageSize: ARCHIVE_PAGE_SIZE },
  );
  const empty =
    !tried.loading &&
    !toTry.loading &&
    !tried.error &&
    !toTry.error &&
    tried.entries.length === 0 &&
    toTry.entries.length === 0;
  const filtered = filter.type !== undefined || filter.placeId !== undefined;

  if (empty && filtered) return <p className="empty-state">{NO_MATCHES}</p>;
  if (empty) {
    return (
      <div className="cellar-empty">
        <p className="empty-state">{CELLAR_EMPTY}</p>
        <p className="cellar-empty__hint">
          Tick “In cellar” when you log or edit a bottle you keep at home.
        </p>
      </div>
    );
  }
  return (
    <div className="archive">
      <CellarGroup status="TRIED" list={tried} />
      <CellarGroup status="TO_TRY" list={toTry} />
    </div>
  );
}

/**
 * /cellar: the bottles kept at home, 'Ready to pour' (tried) and 'Waiting to be opened'. Once the
 * user keeps places, bottles or drinking windows, also the cellar's figures, filters by type and
 * place, and the entries grouped by drinking window or the bottles by place.
 */
export function CellarScreen() {
  const cellar = useCellar();
  const state = useCellarViewState();
  // The address's view and filter hold while the figures are on their way, so that its groups
  // are asked for together with them (not after, nor the two groups of status first); once it is
  // known that the user keeps nothing beyond the flag, the screen is the two groups alone.
  const trusted = cellar.used || !cellar.known;
  const view = trusted ? state.view : 'status';
  const filter = trusted ? state.filter : {};

  return (
    <Screen title="Cellar">
      <Suspense fallback={null}>
        <CellarTools cellar={cellar} state={state} />
      </Suspense>
      {view === 'status' ? (
        <StatusGroups filter={filter} />
      ) : (
        <Suspense fallback={<ScreenLoading />}>
          <CellarViews view={view} filter={filter} summary={cellar.summary} />
        </Suspense>
      )}
    </Screen>
  );
}
