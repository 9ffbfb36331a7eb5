/**
 * An expected failure of a domain operation, carrying the HTTP-like status and a message a person
 * understands. Domain modules throw it; the HTTP layer turns it into `{ message }`.
 *
 * It carries no stack trace: it is an answer, not a bug, and capturing a stack for every 401
 * or 404 was a measurable part of a request's cost.
 */
export class DomainError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    status: DomainError['status'],
    message: string,
    options: { retryAfterSeconds?: number } = {},
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DomainError';
    this.status = status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const badRequest = (message: string) => new DomainError(400, message);
export const unauthorized = (message = 'You need to sign in first.') =>
  new DomainError(401, message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new DomainError(403, message);
export const notFound = (message: string) => new DomainError(404, message);
export const conflict = (message: string) => new DomainError(409, message);
