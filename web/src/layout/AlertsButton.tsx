import { useId, useRef, useState } from 'react';
import type { VaultNotification } from '../api/types.ts';
import { useNotifications } from '../notifications/notifications.tsx';
import { BellIcon } from '../ui/icons.tsx';
import { useDismiss } from '../ui/useDismiss.ts';

function describe(notification: VaultNotification): string {
  const sender = notification.sender?.fullName ?? 'Someone';
  if (notification.type === 'FOLLOW_INVITE') return `${sender} followed you`;
  const what = notification.beverage?.name ?? 'an entry';
  return `${sender} shared ${what} with you`;
}

/** The header's Alerts button, its pending-count badge and the notifications panel. */
export function AlertsButton() {
  const { notifications, pendingCount, loading, error, reload } = useNotifications();
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const titleId = useId();

  useDismiss(open, containerRef, () => setOpen(false), buttonRef);

  const toggle = () => {
    if (!open) void reload();
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
        <span className="alerts__label" aria-hidden="true">
          Alerts
        </span>
        <span className={`badge${pendingCount > 0 ? ' badge--hot' : ''}`} aria-hidden="true">
          {pendingCount}
        </span>
      </button>
      {open && (
        <section id={panelId} className="popover alerts__panel" aria-labelledby={titleId}>
          <h2 id={titleId} className="popover__title">
            Alerts
          </h2>
          {error ? (
            <p role="alert" className="form-error">
              {error}
            </p>
          ) : notifications.length === 0 ? (
            <p className="empty-state">{loading ? 'Loading…' : 'No notifications yet.'}</p>
          ) : (
            <ul className="alerts__list">
              {notifications.map((notification) => (
                <li key={notification.id} className="alerts__item">
                  <p className="alerts__text">{describe(notification)}</p>
                  {notification.payload?.message && (
                    <p className="alerts__message">“{notification.payload.message}”</p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
