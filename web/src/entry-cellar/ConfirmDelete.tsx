import type { ReactNode } from 'react';
import { ConfirmAction } from '../ui/ConfirmAction.tsx';

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
    <ConfirmAction
      question={question}
      confirmLabel="Yes, delete"
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
      className="cellar-entry__actions"
      questionClassName="cellar-entry__confirm"
      cancelClassName="chip-button"
      confirmClassName="chip-button chip-button--danger"
    />
  );
}
