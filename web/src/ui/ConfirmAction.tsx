import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import './confirm-action.css';

export interface ConfirmActionProps {
  /** What is about to happen, as a question. */
  question: ReactNode;
  /** The button that goes ahead: 'Yes, delete', 'Yes, revoke'. */
  confirmLabel: string;
  /** While the action runs both buttons are off. */
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** The row's class (a flex row that wraps; the question takes a line of its own). */
  className?: string;
  questionClassName?: string;
  cancelClassName?: string;
  confirmClassName?: string;
}

/**
 * The question an action that cannot be taken back asks first, in place of the button that
 * started it: the question, Cancel and the confirming button. Cancel takes focus when it
 * appears, so that Enter or Space pressed again never confirms by accident.
 */
export function ConfirmAction({
  question,
  confirmLabel,
  busy,
  onCancel,
  onConfirm,
  className = 'confirm-action',
  questionClassName = 'confirm-action__question',
  cancelClassName = 'button button--secondary',
  confirmClassName = 'button button--danger',
}: ConfirmActionProps) {
  const questionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className={className} role="group" aria-labelledby={questionId}>
      <p id={questionId} className={questionClassName}>
        {question}
      </p>
      <button
        ref={cancelRef}
        type="button"
        className={cancelClassName}
        onClick={onCancel}
        disabled={busy}
      >
        Cancel
      </button>
      <button type="button" className={confirmClassName} disabled={busy} onClick={onConfirm}>
        {confirmLabel}
      </button>
    </div>
  );
}
