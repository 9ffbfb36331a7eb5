import { useEffect } from 'react';
import type { RefObject } from 'react';
import { focusableIn } from './focus.ts';

/** Whether nothing has focus: the browser puts it on the body when the focused element goes. */
const focusLost = () =>
  document.activeElement === null ||
  document.activeElement === document.body ||
  document.activeElement === document.documentElement;

/** Whether `node` comes after `reference` in the page and is not inside it. */
const comesAfter = (reference: Node, node: Node) => {
  const position = reference.compareDocumentPosition(node);
  return (
    (position & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 &&
    (position & Node.DOCUMENT_POSITION_CONTAINED_BY) === 0
  );
};

/**
 * Where focus goes when the element that had it left the page: the first element Tab reaches
 * at or after the place it was (the next item of a list, the buttons that replaced it), else
 * the last one before it, searched in its old parent and then outwards up to `scope`; else the
 * scope's heading (made focusable) or the scope itself.
 */
function replacementFor(
  lost: Node,
  records: MutationRecord[],
  scope: HTMLElement,
): HTMLElement | null {
  const record = records.find(
    (item) =>
      item.type === 'childList' &&
      item.target.isConnected &&
      Array.from(item.removedNodes).some((node) => node.contains(lost)),
  );
  if (record) {
    const parent = record.target;
    const next = record.nextSibling?.isConnected ? record.nextSibling : null;
    const previous = record.previousSibling?.isConnected ? record.previousSibling : null;
    // At or after the place: in or past the next sibling, past the previous one, else anywhere
    // in the old parent (its children were all replaced) or past it.
    const isAfter = (node: Node) =>
      next
        ? next.contains(node) || comesAfter(next, node)
        : previous
          ? comesAfter(previous, node)
          : parent.contains(node) || comesAfter(parent, node);
    for (
      let box: Node | null = parent;
      box instanceof HTMLElement && scope.contains(box);
      box = box.parentNode
    ) {
      const items = focusableIn(box);
      const target = items.find(isAfter) ?? items.findLast((item) => !isAfter(item));
      if (target) return target;
      if (box === scope) break;
    }
  }
  const heading = scope.querySelector<HTMLElement>('h1, h2, h3');
  if (heading) {
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    return heading;
  }
  return scope.hasAttribute('tabindex') ? scope : null;
}

/**
 * Keeps focus inside a dialog or panel when an action removes or replaces the focused element
 * (a deleted item, a form that closes after saving, buttons a confirmation takes the place of):
 * the browser would put it on the page's body, and the next Tab would start again from the top
 * of the page. Focus moves instead to what stands nearest where it was
 * (replacementFor). An element disabled while it works keeps its claim: focus comes back to it
 * when it is enabled again, or moves on when it goes. A click elsewhere ends the claim. `active`
 * is for a scope rendered only at times (a popover while open).
 */
export function useKeepFocus(scopeRef: RefObject<HTMLElement | null>, active = true): void {
  useEffect(() => {
    const scope = scopeRef.current;
    if (!scope || !active) return;
    let last: HTMLElement | null = null;

    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement) last = event.target;
    };
    // Focus moved on elsewhere (another dialog, the page): nothing left to keep.
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && !scope.contains(event.relatedTarget)) last = null;
    };
    const onPointerDown = () => {
      last = null;
    };
    const observer = new MutationObserver((records) => {
      if (!last || !focusLost()) return;
      if (last.isConnected) {
        if (scope.contains(last) && focusableIn(scope).includes(last)) last.focus();
        return;
      }
      const target = replacementFor(last, records, scope);
      last = null;
      target?.focus();
    });
    scope.addEventListener('focusin', onFocusIn);
    scope.addEventListener('focusout', onFocusOut);
    document.addEventListener('pointerdown', onPointerDown, true);
    observer.observe(scope, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled', 'hidden'],
    });
    return () => {
      observer.disconnect();
      scope.removeEventListener('focusin', onFocusIn);
      scope.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [scopeRef, active]);
}
