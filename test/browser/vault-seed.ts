import type { Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import type { NewEntryInput } from '../../src/beverages/service.ts';
import type { TestServer } from '../helpers/server.ts';

/** Entries that are not the thing under test go straight into the vault through its domain. */
export async function seedEntry(
  server: TestServer,
  username: string,
  input: Partial<NewEntryInput> & { name: string },
  photo?: Uint8Array,
) {
  const user = await server.ctx.users.findByUsername(username);
  if (!user) throw new Error(`no user ${username}`);
  return server.ctx.beverages.create(
    { id: user.id, role: user.role },
    { type: 'WHISKEY', ...input },
    photo,
  );
}

/** Requests to /api/beverages the page sends from now on. */
export function watchBeverageRequests(page: Page) {
  const requests: { method: string; url: URL; at: number; request: Request }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/beverages')) {
      requests.push({ method: request.method(), url, at: Date.now(), request });
    }
  });
  return {
    all: requests,
    of: (method: string) => requests.filter((r) => r.method === method),
    clear: () => requests.splice(0),
  };
}

/** A FormData body the page sent with fetch: its URL, method and field names. */
export interface SentForm {
  url: string;
  method: string;
  fields: string[];
}

/**
 * Records the field names of every FormData the page sends with fetch or XMLHttpRequest (a
 * photo goes with XMLHttpRequest, for its upload progress; the browser does not hand multipart
 * bodies with files to the test). Use as openSignedIn's `prepare`. The script runs in the page,
 * so it is given as text.
 */
export async function recordForms(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const sent = [];
    window.__sentForms = sent;
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      if (init && init.body instanceof FormData) {
        sent.push({ url: String(input), method: init.method || 'GET', fields: [...init.body.keys()] });
      }
      return original(input, init);
    };
    const open = XMLHttpRequest.prototype.open;
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.open = function (method, url, ...rest) {
      this.__sent = { url: String(url), method: String(method) };
      return open.call(this, method, url, ...rest);
    };
    XMLHttpRequest.prototype.send = function (body) {
      if (body instanceof FormData && this.__sent) {
        sent.push({ ...this.__sent, fields: [...body.keys()] });
      }
      return send.call(this, body);
    };
  })()`);
}

/** The FormData bodies recorded by recordForms, in order. */
export async function sentForms(page: Page): Promise<SentForm[]> {
  return (await page.evaluate('window.__sentForms')) as SentForm[];
}

/** Waits until an <img> has loaded a real image and returns its natural width. */
export async function loadedWidth(selector: Locator) {
  await selector.scrollIntoViewIfNeeded();
  const width = () =>
    selector.evaluate((element) => {
      const img = element as unknown as { complete: boolean; naturalWidth: number };
      return img.complete ? img.naturalWidth : 0;
    });
  // An image made on demand (a QR code) may take a few seconds on a busy machine: the poll's
  // default second was not always enough.
  await expect.poll(width, { timeout: 10_000 }).toBeGreaterThan(0);
  return width();
}
