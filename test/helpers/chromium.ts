import fs from 'node:fs';
import { chromium } from 'playwright-core';
import type { BrowserServer } from 'playwright-core';

/** Debian's Chromium. Tests never download a browser of their own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/*
 * Headless Chromium is the whole browser: every new context opens a window whose address bar
 * loads a WebUI renderer of its own (chrome://omnibox-popup.top-chrome). Measured on this
 * machine, that renderer was about a third of the CPU time of opening a page of the vault
 * (1.9 s → 1.2 s per fresh context), and the browser tests are bound by CPU. The tests never
 * type into an address bar, so the popup is turned off.
 */
const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

/** Fails loudly when Chromium is not installed: browser tests never skip. */
export function assertChromiumInstalled(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with apt-get install -y chromium`,
    );
  }
}

/**
 * Starts one Chromium for the whole run; each browser test file connects to it. Chromium keeps
 * only the last `--disable-features` switch, so ours is Playwright's own list (read from the
 * command line it builds) with the unused features added, not a replacement of it.
 */
export async function launchChromiumServer(): Promise<BrowserServer> {
  assertChromiumInstalled();
  const options = { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS };
  const probe = await chromium.launchServer(options);
  const defaults = probe.process().spawnargs.find((arg) => arg.startsWith('--disable-features='));
  await probe.close();
  return chromium.launchServer({
    ...options,
    ...(defaults && { ignoreDefaultArgs: [defaults] }),
    args: [
      ...CHROMIUM_ARGS,
      `${defaults ?? '--disable-features='}${defaults ? ',' : ''}${UNUSED_FEATURES.join(',')}`,
    ],
  });
}
