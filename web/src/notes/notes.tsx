import { createContext, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';

/** Success notes clear after 4000 ms, error notes after 6000 ms. */
export const SUCCESS_NOTE_MS = 4000;
export const ERROR_NOTE_MS = 6000;

export type NoteKind = 'success' | 'error';

export interface Note {
  id: number;
  kind: NoteKind;
  message: string;
}

interface NotesContextValue {
  notes: Note[];
  /** Shows a success note that clears after 4 s. */
  notifySuccess: (message: string) => void;
  /** Shows an error in the red banner that clears after 6 s. */
  notifyError: (message: string) => void;
  /** Shows the message of anything thrown (ApiError, Error or a string). */
  notifyFailure: (error: unknown, fallback: string) => void;
  dismiss: (id: number) => void;
  clear: () => void;
}

const NotesContext = createContext<NotesContextValue | null>(null);

export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

export function NotesProvider({ children }: { children: ReactNode }) {
  const [notes, setNotes] = useState<Note[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
    setNotes((current) => current.filter((note) => note.id !== id));
  }, []);

  const push = useCallback(
    (kind: NoteKind, message: string) => {
      const id = nextId.current++;
      // The same message again replaces the old note rather than stacking a copy.
      setNotes((current) => [
        ...current.filter((note) => !(note.kind === kind && note.message === message)),
        { id, kind, message },
      ]);
      const ms = kind === 'success' ? SUCCESS_NOTE_MS : ERROR_NOTE_MS;
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), ms),
      );
    },
    [dismiss],
  );

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    setNotes([]);
  }, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

  const value = useMemo<NotesContextValue>(
    () => ({
      notes,
      notifySuccess: (message) => push('success', message),
      notifyError: (message) => push('error', message),
      notifyFailure: (error, fallback) => push('error', messageOf(error, fallback)),
      dismiss,
      clear,
    }),
    [notes, push, dismiss, clear],
  );

  return <NotesContext value={value}>{children}</NotesContext>;
}

export function useNotes(): NotesContextValue {
  const value = use(NotesContext);
  if (!value) throw new Error('useNotes must be used inside <NotesProvider>');
  return value;
}
