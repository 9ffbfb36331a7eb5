import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

/** The least contrast of text and its background (WCAG 2 AA, normal text). */
export const MIN_CONTRAST = 4.5;

/**
 * The contrast ratio (WCAG 2) of an element's text colour on the background it is drawn on, as
 * the page shows it now: its own background blended over its ancestors' until an opaque one.
 * Waits first for the element's transitions to end, so that a hover or press is measured in
 * its final colours.
 */
export async function contrastOf(target: Locator): Promise<number> {
  await expect.poll(() => target.evaluate((element) => element.getAnimations().length)).toBe(0);
  return target.evaluate((element) => {
    const style = (at: typeof element) => at.ownerDocument.defaultView!.getComputedStyle(at);
    const parse = (text: string) => {
      const parts = (text.match(/[\d.]+%?/g) ?? []).map((part: string) =>
        part.endsWith('%') ? parseFloat(part) / 100 : parseFloat(part),
      );
      return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 };
    };
    const over = (top: ReturnType<typeof parse>, bottom: ReturnType<typeof parse>) => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    });
    const layers: ReturnType<typeof parse>[] = [];
    for (let at: typeof element | null = element; at; at = at.parentElement) {
      const layer = parse(style(at).backgroundColor);
      if (layer.a > 0) layers.push(layer);
      if (layer.a >= 1) break;
    }
    let background = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) background = over(layer, background);
    const text = over(parse(style(element).color), background);
    const luminance = ({ r, g, b }: ReturnType<typeof parse>) => {
      const linear = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const [one, two] = [luminance(text), luminance(background)];
    return (Math.max(one, two) + 0.05) / (Math.min(one, two) + 0.05);
  });
}
