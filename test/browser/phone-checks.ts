import type { Locator, Page } from 'playwright-core';

/** The smallest tap target on a phone, in CSS pixels, in either direction. */
export const MIN_TAP = 44;

/** How wide the page scrolls: at most the viewport when nothing sticks out. */
export const scrollWidth = (page: Page) =>
  page.evaluate('document.scrollingElement.scrollWidth') as Promise<number>;

/**
 * Every visible thing a finger can tap that is smaller than MIN_TAP in either direction, as
 * 'label (width×height)': links, buttons, menu items, text inputs, selects, text areas, range
 * inputs and summaries. A radio button or check box is tapped through its label, so the label
 * (or the input, if it has none) is measured. A file input is opened through the label that
 * wraps it, drawn as a button, which is measured; a file input drawn by the browser is reported
 * whatever its box, as its button inside is drawn at the height of its text. A link inside a
 * sentence is exempt (a sentence cannot grow to 44 px), as in WCAG 2.5.8. Given as text: it
 * runs in the page.
 */
export const smallTargets = (page: Page) =>
  page.evaluate(`(() => {
    const TARGETS = 'a[href], button, [role="button"], [role="menuitem"], input:not([type="hidden"]), select, textarea, summary';
    const visible = (element) => {
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) return false;
      if (getComputedStyle(element).visibility === 'hidden') return false;
      return !element.closest('[hidden], [aria-hidden="true"], [inert]');
    };
    const inSentence = (link) => {
      if (link.tagName !== 'A' || getComputedStyle(link).display !== 'inline') return false;
      const block = link.parentElement;
      const text = (block && block.textContent || '').trim();
      return text.length > (link.textContent || '').trim().length;
    };
    const seen = new Set();
    const small = [];
    const nameOf = (element) => (element.getAttribute('aria-label') || element.textContent || element.getAttribute('name') || element.className || element.tagName).trim().replace(/\\s+/g, ' ').slice(0, 40);
    for (const element of document.querySelectorAll(TARGETS)) {
      if (element.matches('input[type="file"]')) {
        // One not drawn at all (display: none, hidden) is opened by a button measured on its own.
        if (element.getClientRects().length === 0 || element.closest('[hidden], [inert]')) continue;
        if (visible(element)) {
          small.push('file input drawn by the browser: ' + (element.labels?.[0] ? nameOf(element.labels[0]) : nameOf(element)));
          continue;
        }
        if (!element.closest('label')) {
          small.push('file input with no button: ' + nameOf(element));
          continue;
        }
      }
      const choice = element.matches('input[type="radio"], input[type="checkbox"], input[type="file"]');
      const target = (choice && (element.closest('label') || element.labels?.[0])) || element;
      if (seen.has(target)) continue;
      seen.add(target);
      if (!visible(target) || inSentence(target)) continue;
      const box = target.getBoundingClientRect();
      if (box.width < ${MIN_TAP} - 0.5 || box.height < ${MIN_TAP} - 0.5) {
        small.push(nameOf(target) + ' (' + Math.round(box.width) + 'x' + Math.round(box.height) + ')');
      }
    }
    return small;
  })()`) as Promise<string[]>;

/** Whether `locator`'s box lies within [0, width] sideways, as 'left–right' when it does not. */
export async function outsideViewport(locator: Locator, width: number): Promise<string | null> {
  const box = await locator.boundingBox();
  if (!box) return 'not shown';
  const right = box.x + box.width;
  return box.x >= -0.5 && right <= width + 0.5 ? null : `${Math.round(box.x)}–${Math.round(right)}`;
}
