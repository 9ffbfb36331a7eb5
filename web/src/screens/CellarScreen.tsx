import { useId } from 'react';
import type { BeverageStatus } from '../api/types.ts';
import { EntryList } from '../vault/EntryList.tsx';
import { ARCHIVE_PAGE_SIZE, useBeverageList } from '../vault/useBeverageList.ts';
import type { BeverageList } from '../vault/useBeverageList.ts';
import { Screen } from './Screen.tsx';
import './archive.css';

export const CELLAR_EMPTY = 'Your cellar is empty...';

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

/** /cellar: the bottles kept at home, 'Ready to pour' (tried) and 'Waiting to be opened'. */
export function CellarScreen() {
  const tried = useBeverageList({ cellar: true, status: 'TRIED' }, { pageSize: ARCHIVE_PAGE_SIZE });
  const toTry = useBeverageList(
    { cellar: true, status: 'TO_TRY' },
    { pageSize: ARCHIVE_PAGE_SIZE },
  );
  const empty =
    !tried.loading &&
    !toTry.loading &&
    !tried.error &&
    !toTry.error &&
    tried.entries.length === 0 &&
    toTry.entries.length === 0;

  return (
    <Screen title="Cellar">
      {empty ? (
        <div className="cellar-empty">
          <p className="empty-state">{CELLAR_EMPTY}</p>
          <p className="cellar-empty__hint">
            Tick “In cellar” when you log or edit a bottle you keep at home.
          </p>
        </div>
      ) : (
        <div className="archive">
          <CellarGroup status="TRIED" list={tried} />
          <CellarGroup status="TO_TRY" list={toTry} />
        </div>
      )}
    </Screen>
  );
}
