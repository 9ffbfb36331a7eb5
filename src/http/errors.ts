import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ReauthenticationRequired } from '../auth/reauth.ts';
import { DomainError } from '../domain-error.ts';
import { logger } from '../logger.ts';

/**
 * Maps every thrown error to `{ message }`. Never leaks a stack trace. A missing or wrong
 * current password on a route that changes the second factor is answered
 * `{ message, reauthenticate: true }` (403), so that the client asks for it.
 */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ReauthenticationRequired) {
    return c.json({ message: err.message, reauthenticate: true }, 403);
  }
  if (err instanceof DomainError) {
    // A client's mistake, not the vault's: briefly, at debug, with a bounded path.
    if (logger.isEnabledFor('debug')) {
      logger.debug('{method} {path}: {status} {message}', {
        method: c.req.method,
        path: c.req.path.slice(0, 200),
        status: err.status,
        message: err.message.slice(0, 200),
      });
    }
    if (err.retryAfterSeconds !== undefined) c.header('Retry-After', String(err.retryAfterSeconds));
    return c.json({ message: err.message }, err.status as ContentfulStatusCode);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = err.message || defaultMessage(status);
    return c.json({ message }, status);
  }
  logger.error('Unhandled error on {method} {path}: {error}', {
    method: c.req.method,
    path: c.req.path.slice(0, 200),
    error: err,
  });
  return c.json({ message: 'Something went wrong on the server. Please try again.' }, 500);
}

function defaultMessage(status: number): string {
  switch (status) {
    case 400:
      return 'The request could not be understood.';
    case 401:
      return 'You need to sign in first.';
    case 403:
      return 'You are not allowed to do that.';
    case 404:
      return 'Not found.';
    case 413:
      return 'The request is too large.';
    default:
      return 'The request failed.';
  }
}
