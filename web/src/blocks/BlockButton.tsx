import { useState } from 'react';
import type { BlockBody } from '../../../contract/blocks.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { BLOCK_FAILED, useBlock } from './blocks.ts';
import './blocks.css';

/** What blocking does, as the confirmation says it. */
export function blockConsequences(name: string): string {
  return (
    `${name} will stop following you, and you will stop following them. Neither of you will ` +
    `see the other's entries, and they cannot follow you or share entries with you. ` +
    `They are not told that you blocked them. You can unblock them from your profile.`
  );
}

/**
 * 'Block' beside a person (a profile, a follower): asks first, in a dialog that says what
 * blocking does, then blocks and says so in a note. `target` is what POST /users/blocks takes.
 */
export function BlockButton({
  name,
  target,
  className = '',
  onBlocked,
}: {
  name: string;
  target: BlockBody;
  className?: string;
  onBlocked?: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const block = useBlock();
  const { notifySuccess } = useNotes();
  const close = () => {
    setAsking(false);
    block.reset();
  };
  return (
    <>
      <button
        type="button"
        className={`button button--danger-quiet ${className}`.trim()}
        onClick={() => setAsking(true)}
        aria-label={`Block ${name}`}
      >
        Block
      </button>
      {asking && (
        <Dialog
          title={`Block ${name}?`}
          onClose={close}
          size="small"
          footer={
            <>
              <button type="button" className="button button--secondary" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={block.isPending}
                onClick={() =>
                  block.mutate(target, {
                    onSuccess: () => {
                      notifySuccess(`Blocked ${name}`);
                      setAsking(false);
                      onBlocked?.();
                    },
                  })
                }
              >
                Block
              </button>
            </>
          }
        >
          <p className="block-dialog__text">{blockConsequences(name)}</p>
          {block.isError && (
            <p className="form-error" role="alert">
              {messageOf(block.error, BLOCK_FAILED)}
            </p>
          )}
        </Dialog>
      )}
    </>
  );
}
