import { useRef } from 'react';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import { BlockButton } from './BlockButton.tsx';
import { useBlocks, useUnblock } from './blocks.ts';
import './blocks.css';

/**
 * Block / Unblock on another user's profile page. Whether the viewer blocked them comes from
 * the Blocked list, which both buttons keep up to date.
 */
export function ProfileBlock({ username, name }: { username: string; name: string }) {
  const blocks = useBlocks();
  const unblock = useUnblock();
  const boxRef = useRef<HTMLDivElement>(null);
  // Block and Unblock take each other's place: focus goes from one to the other.
  useKeepFocus(boxRef, !blocks.isPending);
  if (blocks.isPending) return null;
  const block = (blocks.data ?? []).find((item) => item.username === username);
  return (
    <div ref={boxRef} className="profile-block">
      {block ? (
        <>
          <span className="tag tag--muted">Blocked</span>
          <button
            type="button"
            className="button button--secondary"
            disabled={unblock.isPending}
            onClick={() => unblock.mutate(block)}
            aria-label={`Unblock ${name}`}
          >
            Unblock
          </button>
        </>
      ) : (
        <BlockButton name={name} target={{ username }} />
      )}
    </div>
  );
}
