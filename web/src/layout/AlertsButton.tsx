import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useNotifications } from '../notifications/useNotifications.ts';
import { BellIcon } from '../ui/icons/shell.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { useDismiss } from '../ui/useDismiss.ts';

// The panel's list and answers: fetched just after the first render, before anyone opens it.
const AlertsPanel = lazyNamed(() => import('../notifications/AlertsPanel.tsx'), 'AlertsPanel');

/**
 * The header's Alerts button with its pending-count badge (polled while the tab is visible) and
 * the notifications panel. Opening the panel asks the server again.
 */
export function AlertsButton() {
  const notifications = useNotifications();
  const { pendingCount, reload } = notifications;
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const titleId = useId();

  useDismiss(open, containerRef, () => setOpen(false), buttonRef);
  useEffect(() => AlertsPanel.preload(), []);

  const toggle = () => {
    if (!open) reload();
    setOpen((value) => !value);
  };

  return (
    <div className="alerts" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="alerts__button"
        aria-label={`Alerts, ${pendingCount} pending`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={toggle}
      >
        <BellIcon />
        {/* The space makes the visible text 'Alerts 1', as in the name (it takes no room). */}
        <span className="alerts__label" aria-hidden="true">
          Alerts
        </span>{' '}
        <span className={`badge${pendingCount > 0 ? ' badge--hot' : ''}`} aria-hidden="true">
          {pendingCount}
        </span>
      </button>
      {open && (
        <section id={panelId} className="popover alerts__panel" aria-labelledby={titleId}>
          <h2 id={titleId} className="popover__title">
            Alerts
          </h2>
          <Suspense fallback={<DialogLoading />}>
            <AlertsPanel {...notifications} scope={containerRef} />
          </Suspense>
        </section>
      )}
    </div>
  );
}
