// How the cellar screen writes its figures: bottles, litres, money, a place's path.
import type { Money } from './api.ts';

/** 'Basement › Rack A › Bin 3'. */
export const placeLabel = (path: readonly string[]): string => path.join(' › ');

/** What a bottle without a place is listed under. */
export const NO_PLACE = 'No place';

export const bottles = (n: number): string => `${n} ${n === 1 ? 'bottle' : 'bottles'}`;

/** '12.5 l', in the browser's own way of writing numbers. */
export const litres = (l: number): string =>
  `${l.toLocaleString(undefined, { maximumFractionDigits: 1 })} l`;

/** '€1,240.00', or '1240.00 XYZ' for a code the browser does not know. */
export function money({ amount, currency }: Money): string {
  try {
    return amount.toLocaleString(undefined, { style: 'currency', currency });
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** '750 ml', '1.5 l'. */
export function sizeLabel(sizeMl: number): string {
  return sizeMl >= 1000 && sizeMl % 100 === 0
    ? `${(sizeMl / 1000).toLocaleString()} l`
    : `${sizeMl} ml`;
}
