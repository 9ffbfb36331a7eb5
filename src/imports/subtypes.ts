import type { BeverageType } from '../db/schema/index.ts';
import { subtypesOf } from '../beverages/catalog.ts';

/**
 * The closest subtype of the catalogue (src/beverages/catalog.ts) for a style, grape or kind
 * written in another app's words. Each candidate text is searched, in order, for a subtype's
 * name or one of its usual other names (accents and case ignored, whole words only); the match
 * that starts earliest wins ('IPA - Belgian' is an IPA, 'Belgian Tripel' is Belgian), the
 * longer one on a tie ('Sparkling Rosé' before 'Rosé'). When nothing matches, the type's first
 * subtype stands in and `original` keeps what the file said (the importer puts it in the notes).
 */
export interface SubtypeMatch {
  subtype: string;
  /** The file's own words, when they did not name a subtype of the catalogue. */
  original: string | null;
}

/** Other names of subtypes, by type: [what a file may say, the catalogue's subtype]. */
const OTHER_NAMES: Record<BeverageType, readonly (readonly [string, string])[]> = {
  WHISKEY: [
    ['tennessee', 'Bourbon'],
    ['islay', 'Single Malt'],
    ['speyside', 'Single Malt'],
    ['highland', 'Scotch'],
    ['blend', 'Blended'],
  ],
  WINE: [
    ['shiraz', 'Syrah'],
    ['pinot gris', 'Pinot Grigio'],
    ['garnacha', 'Grenache'],
    ['cabernet', 'Cabernet Sauvignon'],
    ['primitivo', 'Zinfandel'],
    ['rioja', 'Tempranillo'],
    ['ribera del duero', 'Tempranillo'],
    ['chianti', 'Sangiovese'],
    ['brunello', 'Sangiovese'],
    ['barolo', 'Nebbiolo'],
    ['barbaresco', 'Nebbiolo'],
    ['chateauneuf', 'Grenache'],
    ['sancerre', 'Sauvignon Blanc'],
    ['chablis', 'Chardonnay'],
    ['spatburgunder', 'Pinot Noir'],
    ['gruner', 'Grüner Veltliner'],
    ['alvarinho', 'Albariño'],
    ['vouvray', 'Chenin Blanc'],
    ['rose - sparkling', 'Sparkling Rosé'],
    ['sparkling', 'Champagne'],
    ['cremant', 'Champagne'],
    ['brut', 'Champagne'],
    ['junmai', 'Sake'],
    ['ginjo', 'Sake'],
  ],
  BEER: [
    ['india pale ale', 'IPA'],
    ['neipa', 'IPA'],
    ['dipa', 'IPA'],
    ['pilsener', 'Pilsner'],
    ['pils', 'Pilsner'],
    ['helles', 'Lager'],
    ['bock', 'Lager'],
    ['dunkel', 'Lager'],
    ['marzen', 'Lager'],
    ['kolsch', 'Lager'],
    ['oktoberfest', 'Seasonal'],
    ['festbier', 'Seasonal'],
    ['winter', 'Seasonal'],
    ['christmas', 'Seasonal'],
    ['pumpkin', 'Seasonal'],
    ['hefeweizen', 'Wheat'],
    ['weizen', 'Wheat'],
    ['weissbier', 'Wheat'],
    ['witbier', 'Wheat'],
    ['white ale', 'Wheat'],
    ['saison', 'Belgian'],
    ['tripel', 'Belgian'],
    ['dubbel', 'Belgian'],
    ['quadrupel', 'Belgian'],
    ['trappist', 'Belgian'],
    ['gose', 'Sour'],
    ['lambic', 'Sour'],
    ['gueuze', 'Sour'],
    ['berliner', 'Sour'],
    ['wild ale', 'Sour'],
    ['kriek', 'Sour'],
  ],
};

/** Lower case, accents dropped, runs of spaces made one. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Pattern {
  regex: RegExp;
  length: number;
  subtype: string;
}

const PATTERNS = new Map<BeverageType, Pattern[]>();

function patternsOf(type: BeverageType): Pattern[] {
  let patterns = PATTERNS.get(type);
  if (!patterns) {
    const names: (readonly [string, string])[] = [
      ...subtypesOf(type).map((s) => [fold(s), s] as const),
      ...OTHER_NAMES[type],
    ];
    patterns = names.map(([name, subtype]) => ({
      regex: new RegExp(`(^|[^a-z0-9])${escapeRegExp(name)}(?![a-z0-9])`),
      length: name.length,
      subtype,
    }));
    PATTERNS.set(type, patterns);
  }
  return patterns;
}

function matchOne(type: BeverageType, text: string): string | null {
  const folded = fold(text);
  if (!folded) return null;
  let best: { at: number; length: number; subtype: string } | null = null;
  for (const p of patternsOf(type)) {
    const m = p.regex.exec(folded);
    if (!m) continue;
    const at = m.index + m[1]!.length;
    if (!best || at < best.at || (at === best.at && p.length > best.length)) {
      best = { at, length: p.length, subtype: p.subtype };
    }
  }
  return best?.subtype ?? null;
}

/** The closest subtype for the first candidate text that names one (see above). */
export function closestSubtype(
  type: BeverageType,
  candidates: readonly (string | undefined)[],
): SubtypeMatch {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const subtype = matchOne(type, candidate);
    if (subtype) return { subtype, original: null };
  }
  const original = candidates.find((c) => c && c.trim())?.trim() ?? null;
  return { subtype: subtypesOf(type)[0]!, original };
}
