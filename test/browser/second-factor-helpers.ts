import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { totpCode } from '../helpers/second-factor.ts';
import type { TestServer } from '../helpers/server.ts';
import {
  createSoftAuthenticator,
  type RegistrationOptionsJson,
} from '../helpers/soft-authenticator.ts';
import { sessionCookieFrom } from '../helpers/vault.ts';

/*
 * Second-factor set-up for browser tests whose subject is something else (the login prompts,
 * the profile's other sections): done through the real API, as a script would, with TOTP codes
 * from Debian's oathtool and keys from the software authenticator of the API tests.
 */

/** A call to the vault's API from Node, as the vault's own origin (CSRF rules hold). */
async function api(
  server: TestServer,
  path: string,
  init: { method?: string; json?: unknown; cookie?: string } = {},
) {
  const listen = new URL(server.url);
  // The server listens on 127.0.0.1 whatever host name its origin uses.
  const url = `http://127.0.0.1:${listen.port}${path}`;
  const headers: Record<string, string> = { origin: server.url };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  const res = await fetch(url, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** Signs in through the API (no second factor yet) and returns the session cookie. */
export async function apiSignIn(server: TestServer, username: string, password: string) {
  return sessionCookieFrom(await api(server, '/api/auth/login', { json: { username, password } }));
}

const STEP_MS = 30_000;
/** Time a code needs to reach the server; a code must still be in the window then. */
const MARGIN_MS = 3_000;

/**
 * Hands out authenticator codes for one secret the way a person would type them: each for a
 * 30-second step later than the last one used (the server refuses a step already used), picked
 * among the steps the server accepts now (the current one, one before and one after), so that
 * nothing waits for the clock unless three codes are used within one step.
 */
export function totpClock(secret: string) {
  let lastStep = -1;
  return {
    secret,
    async next(): Promise<string> {
      let now = Date.now();
      const lowest = Math.floor((now + MARGIN_MS) / STEP_MS) - 1;
      const step = Math.max(lastStep + 1, lowest);
      if (step > Math.floor(now / STEP_MS) + 1) {
        await new Promise((resolve) => setTimeout(resolve, (step - 1) * STEP_MS - now + 100));
        now = Date.now();
      }
      lastStep = step;
      return totpCode(secret, step * STEP_MS + STEP_MS / 2);
    },
  };
}

export type TotpClock = ReturnType<typeof totpClock>;

/** Sets up and confirms the authenticator app of a user through the API (with the password). */
export async function enableTotp(server: TestServer, username: string, password: string) {
  const cookie = await apiSignIn(server, username, password);
  const setup = (await (
    await api(server, '/api/totp/setup', { json: { password }, cookie })
  ).json()) as {
    secret: string;
    backupCodes: string[];
  };
  const clock = totpClock(setup.secret);
  await api(server, '/api/totp/verify', { json: { token: await clock.next() }, cookie });
  await api(server, '/api/auth/logout', { json: {}, cookie });
  return { clock, backupCodes: setup.backupCodes };
}

/** Registers a (software) security key for a user through the API (with the password). */
export async function registerSoftKey(server: TestServer, username: string, password: string) {
  const cookie = await apiSignIn(server, username, password);
  const options = (await (
    await api(server, '/api/webauthn/registration/options', { json: { password }, cookie })
  ).json()) as RegistrationOptionsJson;
  const authenticator = createSoftAuthenticator(server.url);
  const response = authenticator.register(options);
  await api(server, '/api/webauthn/registration/verify', {
    json: { ...response, nickname: null },
    cookie,
  });
  await api(server, '/api/auth/logout', { json: {}, cookie });
  return authenticator;
}

/** Chromium's virtual authenticator (CDP) for a page: a USB key with user verification. */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
  options: { presence?: boolean } = {},
) {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: options.presence ?? true,
    },
  });
  return {
    /** Whether the key "is touched" at once (false: a ceremony waits until cancelled). */
    async setPresence(enabled: boolean) {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
    },
    /** The credentials the authenticator holds, with their ids in base64url as the server has them. */
    async credentials() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials.map((credential) => ({
        ...credential,
        credentialId: Buffer.from(credential.credentialId, 'base64').toString('base64url'),
      }));
    },
  };
}
