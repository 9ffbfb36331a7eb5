import { useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { useKeepFocus } from '../ui/useKeepFocus.ts';

interface PanelProps {
  title: string;
  /** A short line under the title. */
  intro?: ReactNode;
  /** Something at the title's end (a status pill, say). */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/**
 * One section of the profile page: a landmark region named by its heading, which keeps focus
 * when an action takes away the focused element (useKeepFocus).
 */
export function Panel({ title, intro, aside, className, children }: PanelProps) {
  const titleId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  useKeepFocus(sectionRef);
  return (
    <section
      ref={sectionRef}
      className={`panel account-panel ${className ?? ''}`.trim()}
      aria-labelledby={titleId}
    >
      <div className="account-panel__header">
        <h2 id={titleId} className="panel__title account-panel__title">
          {title}
        </h2>
        {aside}
      </div>
      {intro && <p className="account-panel__intro">{intro}</p>}
      {children}
    </section>
  );
}

/** 'On' / 'Off' beside a second factor's title. */
export function StatusPill({ on, label }: { on: boolean; label?: string }) {
  return (
    <span className={`status-pill ${on ? 'status-pill--on' : ''}`}>
      {label ?? (on ? 'On' : 'Off')}
    </span>
  );
}

/** An error shown in the panel it belongs to (read out at once). */
export function PanelError({ message, id }: { message: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="form-error">
      {message}
    </p>
  );
}
