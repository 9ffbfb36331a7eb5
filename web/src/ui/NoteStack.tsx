import { useNotes } from '../notes/notes.tsx';
import { CloseIcon } from './icons/shell.tsx';
import './notes.css';

/**
 * Renders the notes: errors as red banners (role=alert), successes in a polite live region
 * (role=status) that is always in the page so screen readers announce what lands in it.
 */
export function NoteStack() {
  const { notes, dismiss } = useNotes();
  const errors = notes.filter((note) => note.kind === 'error');
  const successes = notes.filter((note) => note.kind === 'success');

  return (
    <div className="note-stack">
      {errors.map((note) => (
        <div key={note.id} className="note note--error" role="alert">
          <span className="note__text">{note.message}</span>
          <button
            type="button"
            className="icon-button note__close"
            aria-label="Dismiss message"
            onClick={() => dismiss(note.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
      <div role="status" className="note-stack__status">
        {successes.map((note) => (
          <div key={note.id} className="note note--success">
            <span className="note__text">{note.message}</span>
            <button
              type="button"
              className="icon-button note__close"
              aria-label="Dismiss message"
              onClick={() => dismiss(note.id)}
            >
              <CloseIcon />
            </button>
          </div>
        ))}
      </div>
    </div>
  );
}
