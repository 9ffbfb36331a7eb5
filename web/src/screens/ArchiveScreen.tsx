import { useId, useMemo } from 'react';
import { Link } from 'wouter';
import type { BeverageStatus, BeverageType } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { ArrowLeftIcon, ArrowRightIcon } from '../ui/icons.tsx';
import { EntryList, NO_ENTRIES } from '../vault/EntryList.tsx';
import { SelectionBar } from '../vault/SelectionBar.tsx';
import { ARCHIVE_PAGE_SIZE, useBeverageList, type BeverageList } from '../vault/useBeverageList.ts';
import { useSelection, type Selection } from '../vault/useSelection.ts';
import { Screen } from './Screen.tsx';
import './archive.css';

function ArchiveGroup({
  status,
  list,
  selection,
}: {
  status: BeverageStatus;
  list: BeverageList;
  selection: Selection;
}) {
  const titleId = useId();
  return (
    <section className="archive-group" aria-labelledby={titleId}>
      <h2 id={titleId} className="archive-group__title">
        {status === 'TRIED' ? 'Tried' : 'To try'}
      </h2>
      <EntryList
        list={list}
        empty={NO_ENTRIES}
        pageable
        selection={selection.active ? selection : undefined}
      />
    </section>
  );
}

/** One type's tried and to-try groups, and 'Select' to change the visibility of many at once. */
function Archive({ type }: { type: BeverageType }) {
  const options = { pageSize: ARCHIVE_PAGE_SIZE };
  const tried = useBeverageList({ type, status: 'TRIED' }, options);
  const toTry = useBeverageList({ type, status: 'TO_TRY' }, options);
  const onScreen = useMemo(
    () => [...tried.entries, ...toTry.entries],
    [tried.entries, toTry.entries],
  );
  const selection = useSelection(onScreen);
  return (
    <div className="archive">
      <SelectionBar selection={selection} />
      <ArchiveGroup status="TRIED" list={tried} selection={selection} />
      <ArchiveGroup status="TO_TRY" list={toTry} selection={selection} />
    </div>
  );
}

/** /whiskey, /wine and /beer: one type's archive, tried and to-try. */
export function ArchiveScreen({ type }: { type: BeverageType }) {
  const kind = BEVERAGE_KINDS[type];
  const next = BEVERAGE_KINDS[kind.next];
  return (
    <Screen
      title={kind.archiveTitle}
      before={
        <div className="screen__links">
          <Link href="/" className="back-link">
            <ArrowLeftIcon />
            Back to dashboard
          </Link>
          <Link href={next.path} className="back-link back-link--next">
            {next.archiveTitle}
            <ArrowRightIcon />
          </Link>
        </div>
      }
    >
      <Archive key={type} type={type} />
    </Screen>
  );
}
