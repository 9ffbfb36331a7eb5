import { useEffect, useId, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import { createPortal } from 'react-dom';
import { focusableIn } from './focus.ts';
import { CloseIcon } from './icons.tsx';
import { useKeepFocus } from './useKeepFocus.ts';
import './dialog.css';

export interface DialogProps {
  title: ReactNode;
  /** Escape, the close button and a click on the backdrop all call this. */
  onClose: () => void;
  children: ReactNode;
  /** Buttons along the bottom edge. */
  footer?: ReactNode;
  /** What gets focus on open; the first focusable element when left out. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Wait this long before the first focus (the authenticator code field waits 50 ms). */
  initialFocusDelayMs?: number;
  /** Text under the title, read out with it. */
  description?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  /** Hide the × button (for prompts whose own buttons say what closing means). */
  hideCloseButton?: boolean;
  closeOnBackdrop?: boolean;
}

/** Open dialogs, innermost last: only the innermost one answers Escape and Tab. */
const openDialogs: HTMLElement[] = [];

/** Tab and Shift+Tab go round the panel's controls and never leave it. */
function cycle(panel: HTMLElement, event: KeyboardEvent) {
  const items = focusableIn(panel);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) {
    event.preventDefault();
    panel.focus();
    return;
  }
  const active = document.activeElement;
  if (!(active instanceof Node) || !panel.contains(active)) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  } else if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog. While it is open the page behind it is inert, Tab and Shift+Tab cycle inside
 * it, Escape closes it wherever focus is, focus stays inside when an action takes away the
 * focused element (useKeepFocus), and it returns to where it was when the dialog closes. Render
 * it only while it is open.
 */
export function Dialog({
  title,
  onClose,
  children,
  footer,
  initialFocus,
  initialFocusDelayMs = 0,
  description,
  size = 'medium',
  hideCloseButton = false,
  closeOnBackdrop = true,
}: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useKeepFocus(panelRef);

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = document.getElementById('root');
    const wasInert = root?.inert ?? false;
    if (root) root.inert = true;
    openDialogs.push(panel);

    const focusFirst = () => {
      const target = initialFocus?.current ?? focusableIn(panel)[0] ?? panel;
      target.focus();
    };
    // Hold focus on the panel until the real target is focused (so it never stays behind).
    panel.focus();
    const timer = setTimeout(focusFirst, initialFocusDelayMs);

    // Focus that somehow lands outside (a click on the inert page, say) comes back.
    const onFocusIn = (event: FocusEvent) => {
      if (openDialogs.at(-1) !== panel) return;
      if (event.target instanceof Node && !panel.contains(event.target)) focusFirst();
    };
    document.addEventListener('focusin', onFocusIn);

    // Keys are heard on the document, so that Escape closes the dialog wherever focus is.
    const onKeyDown = (event: KeyboardEvent) => {
      if (openDialogs.at(-1) !== panel || event.defaultPrevented) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        cycle(panel, event);
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
      openDialogs.splice(openDialogs.indexOf(panel), 1);
      if (root && openDialogs.length === 0) root.inert = wasInert;
      if (returnTo?.isConnected) returnTo.focus();
    };
    // Focus is set up once per opening; later changes of the props must not steal it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (closeOnBackdrop && event.target === event.currentTarget) onCloseRef.current();
      }}
    >
      <div
        ref={panelRef}
        className={`dialog dialog--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          {!hideCloseButton && (
            <button
              type="button"
              className="icon-button dialog__close"
              aria-label="Close"
              onClick={() => onCloseRef.current()}
            >
              <CloseIcon />
            </button>
          )}
        </div>
        {description && (
          <p id={descriptionId} className="dialog__description">
            {description}
          </p>
        )}
        <div className="dialog__body">{children}</div>
        {footer && <div className="dialog__footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
