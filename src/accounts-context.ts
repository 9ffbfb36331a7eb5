import { createLoginService } from './auth/login.ts';
import { createPendingLogins } from './auth/pending-logins.ts';
import { createReauthService } from './auth/reauth.ts';
import { createSecondFactorRepository } from './auth/second-factor-repository.ts';
import { createSessionRepository } from './auth/session-repository.ts';
import { createSessionService } from './auth/sessions.ts';
import { createLoginThrottle, DEFAULT_LIMITS, type ThrottleLimits } from './auth/throttle.ts';
import { createTotpService } from './auth/totp.ts';
import { createWebAuthnService } from './auth/webauthn.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { createTokenRepository } from './tokens/repository.ts';
import { createTokenRateLimit } from './tokens/rate-limit.ts';
import { createTokenService } from './tokens/service.ts';
import { createUserRepository } from './users/repository.ts';
import { createUserService } from './users/service.ts';
import type { ProfileActivity } from './users/profile-activity.ts';

/**
 * The accounts part of the context (src/context.ts): users, sign-in with its throttle and
 * second factors, sessions, re-authentication, the admin's registry and access tokens. None of
 * it depends on the social or federation parts, which use `users`, `sessions` and `throttle`.
 */
export function createAccountsContext(
  config: Config,
  database: DatabaseHandle,
  options: {
    throttleLimits?: ThrottleLimits;
    now: () => number;
    /** What an admin's edit of a name records for remote servers (src/users/profile-activity.ts). */
    profileActivity?: () => Pick<ProfileActivity, 'record'>;
  },
) {
  const { now } = options;
  const users = createUserRepository(database.database);
  const sessions = createSessionService(
    createSessionRepository(database.database),
    { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
    now,
  );
  const throttle = createLoginThrottle(options.throttleLimits ?? DEFAULT_LIMITS, now);
  const secondFactors = createSecondFactorRepository(database.database);
  const pendingLogins = createPendingLogins(secondFactors, now);
  const webauthn = createWebAuthnService({
    repo: secondFactors,
    users,
    origin: config.origin,
    now,
  });
  const totp = createTotpService({ repo: secondFactors, users, throttle, now });
  return {
    users,
    sessions,
    throttle,
    login: createLoginService({
      users,
      throttle,
      repo: secondFactors,
      pending: pendingLogins,
      webauthn,
      totp,
    }),
    pendingLogins,
    webauthn,
    totp,
    reauth: createReauthService({
      users,
      sessions,
      throttle,
      transaction: database.transaction,
      now,
    }),
    userAdmin: createUserService(users, sessions, database.transaction, options.profileActivity),
    tokens: createTokenService({
      repo: createTokenRepository(database.database),
      users,
      transaction: database.transaction,
      now,
    }),
    tokenRateLimit: createTokenRateLimit(config.tokenRequestsPerMinute, now),
  };
}
