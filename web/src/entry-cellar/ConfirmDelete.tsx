import type { ReactNode } from 'react';

/**
 * The question a line of the entry's cellar asks before it is deleted, in place of its actions:
 * the question, Cancel, and 'Yes, delete' (both off while `busy`).
 */
export function ConfirmDelete({
  question,
  busy,
  onCancel,
  onConfirm,
}: {
  question: ReactNode;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <div className="cellar-entry__actions">
      <p className="cellar-entry__confirm">{question}</p>
      <button type="button" className="chip-button" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button
        type="button"
        className="chip-button chip-button--danger"
        disabled={busy}
        onClick={onConfirm}
      >
        Yes, delete
      </button>
    </div>
  );
}
