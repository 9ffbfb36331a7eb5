import { useId } from 'react';
import { Link } from 'wouter';
import type { BeverageStatus, BeverageType } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { ArrowLeftIcon, ArrowRightIcon } from '../ui/icons.tsx';
import { EntryList, NO_ENTRIES } from '../vault/EntryList.tsx';
import { ARCHIVE_PAGE_SIZE, useBeverageList } from '../vault/useBeverageList.ts';
import { Screen } from './Screen.tsx';
import './archive.css';

function ArchiveGroup({ type, status }: { type: BeverageType; status: BeverageStatus }) {
  const titleId = useId();
  const list = useBeverageList({ type, status }, { pageSize: ARCHIVE_PAGE_SIZE });
  return (
    <section className="archive-group" aria-labelledby={titleId}>
      <h2 id={titleId} className="archive-group__title">
        {status === 'TRIED' ? 'Tried' : 'To try'}
      </h2>
      <EntryList list={list} empty={NO_ENTRIES} pageable />
    </section>
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
      <div className="archive" key={type}>
        <ArchiveGroup type={type} status="TRIED" />
        <ArchiveGroup type={type} status="TO_TRY" />
      </div>
    </Screen>
  );
}
