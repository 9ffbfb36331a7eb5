import { useId, useRef } from 'react';
import { messageOf } from '../notes/notes.tsx';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import { useBlocks, useUnblock, type BlockItem } from './blocks.ts';
import './blocks.css';

export const NO_BLOCKS = "You haven't blocked anyone.";

function BlockedPerson({ block }: { block: BlockItem }) {
  const unblock = useUnblock();
  const label = block.username ? `@${block.username}` : (block.handle ?? block.actorUri ?? '');
  return (
    <li className="blocked__person">
      <div className="blocked__who">
        <span className="blocked__name">{block.displayName}</span>
        <span className="blocked__label">{label}</span>
      </div>
      <button
        type="button"
        className="button button--secondary"
        disabled={unblock.isPending}
        onClick={() => unblock.mutate(block)}
        aria-label={`Unblock ${block.displayName}`}
      >
        Unblock
      </button>
    </li>
  );
}

/** 'Blocked' on the profile screen: the people and fediverse accounts the user blocked. */
export function BlockedPanel() {
  const titleId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  useKeepFocus(sectionRef);
  const blocks = useBlocks();
  const items = blocks.data ?? [];
  return (
    <section ref={sectionRef} className="panel account-panel blocked" aria-labelledby={titleId}>
      <div className="account-panel__header">
        <h2 id={titleId} className="panel__title account-panel__title">
          Blocked
        </h2>
      </div>
      <p className="account-panel__intro">
        Blocked people and accounts cannot follow you or see your entries, and you do not see
        theirs.
      </p>
      {blocks.isPending ? (
        <p className="list-status" role="status">
          Loading…
        </p>
      ) : blocks.isError ? (
        <p className="form-error" role="alert">
          {messageOf(blocks.error, 'Unable to load the blocked list.')}
        </p>
      ) : items.length === 0 ? (
        <p className="empty-state">{NO_BLOCKS}</p>
      ) : (
        <ul className="blocked__list">
          {items.map((block) => (
            <BlockedPerson key={block.id} block={block} />
          ))}
        </ul>
      )}
    </section>
  );
}
