import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** Selectors of the offending elements (the first few). */
  targets: string[];
}

/**
 * Runs axe-core (node_modules/axe-core) in the page as it is now and returns its violations.
 * The script is evaluated through the DevTools protocol, not added as a <script>: the vault's
 * Content-Security-Policy allows only its own scripts, and that stays on under test.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(`axe.run(document, {
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  })))`)) as AxeViolation[];
  return results;
}

/** The violations of impact 'serious' or 'critical', as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}
