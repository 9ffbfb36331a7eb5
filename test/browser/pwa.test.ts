import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { FileChooser, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText } from '../helpers/browser.ts';
import { jpeg } from '../helpers/images.ts';
import { deviceCopy } from './device-copy.ts';
import { controlledByWorker } from './service-worker.ts';
import { loadedWidth, seedEntry } from './vault-seed.ts';

const HAZEL = { username: 'hazel', password: 'hazel-password-1', fullName: 'Hazel Barrel' };
const people = peopleInBrowsers([HAZEL]);

/** Every path stored in the page's caches (the Cache API the service worker fills). */
async function cachedPaths(page: Page): Promise<string[]> {
  const paths = (await page.evaluate(`(async () => {
    const paths = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  })()`)) as string[];
  return paths.sort();
}

const offlineBanner = (page: Page) => page.getByRole('status').filter({ hasText: 'offline' });

describe('the installable app', () => {
  it('has a manifest with 192 px, 512 px and maskable PNG icons, and a worker that is not cached for long', async () => {
    const manifestAnswer = await fetch(new URL('/manifest.webmanifest', people.server.url));
    expect(manifestAnswer.status).toBe(200);
    expect(manifestAnswer.headers.get('content-type')).toBe('application/manifest+json');
    const manifest = (await manifestAnswer.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'The Vault', start_url: '/', display: 'standalone' });
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort();
    expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const answer = await fetch(new URL(icon.src, people.server.url));
      expect(answer.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      expect(meta.format).toBe('png');
    }

    const worker = await fetch(new URL('/sw.js', people.server.url));
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');

    const page = await fetch(people.server.url, { headers: { Accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('<meta name="theme-color"');
  });

  it('keeps only the app shell in its caches, never an API answer or a photo, before and after sign-out', async () => {
    await seedEntry(
      people.server,
      HAZEL.username,
      { name: 'Ardbeg Uigeadail', subtype: 'Scotch' },
      await jpeg(400, 600),
    );
    // Its own session: signing out ends it for every test.
    const page = await people.openAs(HAZEL.username, '/', {
      serviceWorker: true,
      freshSignIn: true,
    });
    await controlledByWorker(page);
    // Load the dashboard again under the worker, photo included.
    await page.reload();
    expect(await loadedWidth(page.locator('img[src^="/media/"]').first())).toBeGreaterThan(0);

    const paths = await cachedPaths(page);
    expect(paths).toContain('/');
    expect(paths).toContain('/manifest.webmanifest');
    expect(paths.some((path) => path.startsWith('/assets/') && path.endsWith('.js'))).toBe(true);
    const personal = (list: string[]) =>
      list.filter((path) => path.startsWith('/api/') || path.startsWith('/media/'));
    expect(personal(paths)).toEqual([]);

    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(personal(await cachedPaths(page))).toEqual([]);
  });
});

/**
 * A browser whose online flag never follows the emulated offline (as some Chromium versions
 * do): navigator.onLine stays true and 'online' and 'offline' never reach the page.
 */
const SAYS_ONLINE = `(() => {
  Object.defineProperty(Navigator.prototype, 'onLine', { get: () => true, configurable: true });
  for (const type of ['online', 'offline']) {
    window.addEventListener(type, (event) => event.stopImmediatePropagation(), { capture: true });
  }
})()`;

describe('offline', () => {
  // Whether the browser's own online flag follows Playwright's emulated offline differs between
  // Chromium versions, so nothing here relies on it: the vault shows it is offline as soon as a
  // request to it gets no answer, and finds out it is back by asking again.
  it.each([
    ['reports the emulated offline', async () => undefined],
    ['keeps saying it is online', (page: Page) => page.addInitScript(SAYS_ONLINE)],
  ])(
    'opens from the device without a connection, says it is offline, and signs back in when the connection returns (the browser %s)',
    async (_, prepare) => {
      const { page, context } = await people.sessionAs(HAZEL.username, '/cellar', {
        serviceWorker: true,
        prepare,
      });
      await controlledByWorker(page);
      expect(await offlineBanner(page).count()).toBe(0);
      // The worker keeps the scripts as the vault sent them, Brotli-encoded, and reads them decoded.
      const scripts = (await page.evaluate(`(async () => {
        const cache = await caches.open('vault-assets-v1');
        const scripts = [];
        for (const request of await cache.keys()) {
          if (!request.url.endsWith('.js')) continue;
          const response = await cache.match(request);
          scripts.push({ coding: response.headers.get('content-encoding'), text: await response.text() });
        }
        return scripts;
      })()`)) as { coding: string | null; text: string }[];
      // (A script so small that Brotli does not make it smaller is sent as it is.)
      expect(scripts.filter((script) => script.coding === 'br').length).toBeGreaterThan(10);
      for (const script of scripts) expect(script.text).toMatch(/\b(?:import|export)\b/);

      // The vault keeps a copy on the device to open from without a connection.
      await expect
        .poll(async () => (await deviceCopy(page))?.user, { timeout: 30_000 })
        .toBe('hazel');

      // Every file of the client is on the device before the connection goes.
      const built = readdirSync(join(import.meta.dirname, '../../web/dist/assets'))
        .filter((name) => /\.(?:js|css)$/.test(name))
        .map((name) => `/assets/${name}`);
      const cached = await cachedPaths(page);
      expect(built.filter((path) => !cached.includes(path))).toEqual([]);

      // A file the page asked for and the device did not have. (A request cut short because the
      // page went on to the next address is not one: it says net::ERR_ABORTED.)
      const failedFiles: string[] = [];
      page.on('requestfailed', (request) => {
        const path = new URL(request.url()).pathname;
        const reason = request.failure()?.errorText ?? '';
        if (!path.startsWith('/api/') && reason !== 'net::ERR_ABORTED') {
          failedFiles.push(`${path} (${reason})`);
        }
      });
      await context.setOffline(true);
      // An open page says so once it asks the vault for something.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Wine Logs' })
        .click();
      await offlineBanner(page).waitFor();
      const answer = await page.reload();
      expect(answer?.fromServiceWorker()).toBe(true);
      await expect
        .poll(() => offlineBanner(page).textContent(), { timeout: 15_000 })
        .toContain('You are offline.');
      // Signed in as the device kept it, on the screen the address names.
      expect(await headingText(page)).toBe('Wine Logs');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      // A screen never opened before comes from the device too.
      await page.goto('/whiskey');
      await offlineBanner(page).waitFor();
      expect(failedFiles).toEqual([]);

      await context.setOffline(false);
      // At once where the browser fires 'online'; else at the session check's next try (5 s).
      await expect.poll(() => offlineBanner(page).count(), { timeout: 30_000 }).toBe(0);
      expect(await headingText(page)).toBe('Whiskey Logs');
    },
  );

  it('opens the cached shell and the device copy when the server itself is gone, and says it is offline', async () => {
    const own = await people.startServer();
    try {
      await own.createUser(HAZEL);
      const { page } = await people.sessionOn(own, HAZEL.username, HAZEL.password, '/', {
        serviceWorker: true,
      });
      await controlledByWorker(page);
      await expect
        .poll(async () => (await deviceCopy(page))?.user, { timeout: 30_000 })
        .toBe('hazel');
      await own.close();
      const answer = await page.reload();
      expect(answer?.fromServiceWorker()).toBe(true);
      // Signed in from the device copy: the dashboard, not 'The vault is unreachable'.
      await page.getByRole('region', { name: 'Log a new beverage' }).waitFor();
      expect(await page.getByText('The vault is unreachable').count()).toBe(0);
      // The browser still says it is connected; the vault's silence is what counts.
      expect(await page.evaluate('navigator.onLine')).toBe(true);
      await expect
        .poll(() => offlineBanner(page).textContent(), { timeout: 15_000 })
        .toContain('You are offline.');
    } finally {
      await own.close().catch(() => undefined);
    }
  });
});

describe('photos from a phone', () => {
  it('offers the camera and the library from one 44 px button, reached by keyboard too, makes a 12 MP photo smaller before sending it, and shows the upload progress', async () => {
    // A touch screen (the camera button is for phones), without the worker in the way.
    const { context, page } = await people.openPage({
      width: 390,
      height: 844,
      touch: true,
      as: HAZEL.username,
    });
    // Remembers whether the progress bar was ever shown (the upload may be quick), and the
    // photo each XMLHttpRequest sends (the browser does not hand multipart bodies to the test).
    await page.addInitScript(`(() => {
      window.__sentPhotos = [];
      const send = XMLHttpRequest.prototype.send;
      XMLHttpRequest.prototype.send = function (body) {
        const photo = body instanceof FormData ? body.get('photo') : null;
        if (photo instanceof File) window.__sentPhotos.push({ name: photo.name, type: photo.type, size: photo.size });
        return send.call(this, body);
      };
      window.__progressSeen = [];
      new MutationObserver(() => {
        const bar = document.querySelector('progress.photo-input__progress');
        if (bar) window.__progressSeen.push(bar.getAttribute('aria-label'));
      }).observe(document, { childList: true, subtree: true, attributes: true });
    })()`);
    await page.goto('/');
    const form = page.getByRole('region', { name: 'Log a new beverage' });
    await form.waitFor();

    // One button, as large as any target on a phone. Its input asks for images without
    // `capture`, so a phone offers its camera and its photo library both.
    const button = form.locator('label', { hasText: 'Take or choose a photo' });
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    const input = form.getByLabel('Take or choose a photo');
    expect(await input.getAttribute('type')).toBe('file');
    expect(await input.getAttribute('accept')).toBe('image/*');
    expect(await input.getAttribute('capture')).toBeNull();
    // The keyboard reaches the hidden input, and Space opens the chooser, as a tap on the button does.
    // Tried until it opens: while the screen settles, the page may move focus to its heading
    // (where Space does nothing) between the focus and the key press.
    let byKeyboard: FileChooser | undefined;
    await expect
      .poll(
        async () => {
          await input.focus();
          const opened = page
            .waitForEvent('filechooser', { timeout: 5_000 })
            .catch(() => undefined);
          await page.keyboard.press('Space');
          byKeyboard = await opened;
          return byKeyboard !== undefined;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    expect(byKeyboard!.isMultiple()).toBe(false);
    await byKeyboard!.setFiles([]);

    // Slow the upload down, as on a phone at the bar.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 100,
      downloadThroughput: -1,
      uploadThroughput: 250_000,
    });

    const original = await jpeg(4000, 3000);
    await form.getByLabel('Name').fill('Phone photo pale ale');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.tap()]);
    await chooser.setFiles({ name: 'IMG_0001.jpeg', mimeType: 'image/jpeg', buffer: original });
    await expect
      .poll(() => form.getByText(/resized to 2048 × 1536/).count(), { timeout: 15_000 })
      .toBe(1);

    await form.getByRole('button', { name: 'Log beverage' }).click();
    await page
      .locator('.note--success', { hasText: 'Beverage logged successfully' })
      .waitFor({ timeout: 20_000 });
    const sent = (await page.evaluate('window.__sentPhotos')) as {
      name: string;
      type: string;
      size: number;
    }[];
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ name: 'IMG_0001.jpg', type: 'image/jpeg' });
    expect(sent[0]!.size).toBeLessThan(original.byteLength / 2);
    expect(await page.evaluate('window.__progressSeen')).toContain('Photo upload');
  });
});
