import { useEffect, useState } from 'react';
import { ERROR_NOTE_MS, SUCCESS_NOTE_MS } from './notes.tsx';

/** What a dialog says of its last action. */
export type DialogNote = { kind: 'success' | 'error'; message: string } | null;

/**
 * A note shown inside a dialog that stays open after an action (the page's own notes are behind
 * it, in the page a modal dialog makes inert), cleared after 4 s or 6 s as the page's are.
 */
export function useDialogNote() {
  const [note, setNote] = useState<DialogNote>(null);
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(
      () => setNote(null),
      note.kind === 'success' ? SUCCESS_NOTE_MS : ERROR_NOTE_MS,
    );
    return () => clearTimeout(timer);
  }, [note]);
  return [note, setNote] as const;
}
