import { apiRoutes } from '../../contract/routes/index.ts';
import type { RouteDef } from '../../contract/routes/route.ts';
import type { TestVault } from './vault.ts';

/**
 * Field names that say an answer holds a secret. A WebAuthn `challenge` is left out: it is a
 * nonce the browser's authenticator signs, not a credential (knowing it signs no one in), and
 * the server checks it against the one it keeps for the session.
 */
export const SECRET_FIELD =
  /secret|password|passphrase|backup.?codes?|recovery|private.?key|otp.?auth|qr.?code/i;

/** The routes whose answer the route table flags as holding a secret. */
export const flaggedSecretRoutes = Object.entries(apiRoutes as Record<string, RouteDef>)
  .filter(([, def]) => def.secretAnswer)
  .map(([key]) => key)
  .sort();

/** Every string of an answer's secret fields (a backup code list is one string each). */
export function secretsIn(value: unknown, into: string[] = [], inSecret = false): string[] {
  if (typeof value === 'string') {
    if (inSecret) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) secretsIn(item, into, inSecret);
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      secretsIn(item, into, inSecret || SECRET_FIELD.test(name));
    }
  }
  return into;
}

/**
 * How to call each route that answers a secret, as a signed-in user with their password (a new
 * such route fails the tests until added here), with an `Idempotency-Key`.
 */
export function secretSender(user: () => { vault: TestVault; cookie: string; password: string }) {
  const sends: Record<string, () => { path: string; body: unknown }> = {
    'POST /tokens': () => ({ path: '/api/tokens', body: { name: 'Backup script', scope: 'read' } }),
    'POST /totp/setup': () => ({ path: '/api/totp/setup', body: { password: user().password } }),
  };
  return {
    keys: Object.keys(sends).sort(),
    send(key: string, idempotencyKey: string) {
      const { path, body } = sends[key]!();
      const { vault, cookie } = user();
      return vault.request(path, {
        method: key.slice(0, key.indexOf(' ')),
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
        cookie,
      });
    },
  };
}
