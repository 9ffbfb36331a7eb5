import { z } from 'zod';
import {
  currentUserSchema,
  loginAnswerSchema,
  loginBodySchema,
  reauthenticateAnswerSchema,
  reauthenticateBodySchema,
  sessionGrantSchema,
  sessionListSchema,
  totpLoginBodySchema,
  totpSetupSchema,
} from '../auth.ts';
import {
  credentialListSchema,
  credentialsChangeSchema,
  passwordBodySchema,
  registrationVerifyBodySchema,
  totpDisableBodySchema,
  totpVerifyBodySchema,
  userAnswerSchema,
} from '../second-factor.ts';
import { authenticationResponseSchema, registrationOptionsSchema } from '../webauthn.ts';
import { route } from './route.ts';

const signIn = 'Sign-in';
const secondFactor = 'Second factor';
const sessions = 'Sessions';

/** Changing the second factor: the password in the body, or entered in the last minutes. */
const NEEDS_PASSWORD =
  'Needs the current password, as `password` or entered in this session within the last ' +
  'five minutes (POST /auth/reauthenticate); otherwise 403 asking for it.';

/** Sign-in, sign-out, the second factor (TOTP and security keys) and the user's sessions. */
export const signInRoutes = {
  'GET /auth/me': route({
    summary: 'The signed-in user',
    tag: signIn,
    access: 'read',
    answer: currentUserSchema,
  }),
  'POST /auth/login': route({
    summary: 'Sign in with username and password',
    description:
      'Signed in at once (the session cookie is set), or a second step: `requiresWebAuthn` ' +
      '(a security key, POST /webauthn/authentication/verify) or `requiresTotp` (a code, ' +
      'POST /auth/login/totp), tied to this browser by a cookie of its own.',
    tag: signIn,
    access: 'public',
    json: loginBodySchema,
    answer: loginAnswerSchema,
    errors: [400, 401, 415, 429],
  }),
  'POST /auth/login/totp': route({
    summary: 'Complete a sign-in with a code of the authenticator app or a backup code',
    tag: signIn,
    access: 'public',
    json: totpLoginBodySchema,
    answer: sessionGrantSchema,
    errors: [400, 401, 415, 429],
  }),
  'POST /auth/reauthenticate': route({
    summary: 'Enter the password again: the second factor may change for five minutes',
    description: 'A wrong password is 403 `{ message, reauthenticate: true }`.',
    tag: signIn,
    access: 'session',
    json: reauthenticateBodySchema,
    answer: reauthenticateAnswerSchema,
    errors: [400, 403, 415, 429],
  }),
  'POST /auth/logout': route({
    summary: "Sign out: ends this browser's session, or its sign-in still waiting for a step",
    description:
      'Public because a sign-in waiting for its second step has no session yet, and a session ' +
      'that already ended still signs out cleanly.',
    tag: signIn,
    access: 'public',
    status: 204,
  }),

  'GET /auth/sessions': route({
    summary: "The signed-in user's live sessions, most recently used first",
    tag: sessions,
    access: 'session',
    answer: sessionListSchema,
  }),
  'DELETE /auth/sessions/{id}': route({
    summary: 'Sign one of your sessions out',
    tag: sessions,
    params: z.object({ id: z.string().describe('The session handle GET /auth/sessions gives') }),
    access: 'session',
    status: 204,
    errors: [404],
  }),

  'POST /totp/setup': route({
    summary: 'Start setting up the authenticator app: its secret, QR code and backup codes',
    description: NEEDS_PASSWORD,
    tag: secondFactor,
    access: 'session',
    json: passwordBodySchema,
    jsonOptional: true,
    answer: totpSetupSchema,
    secretAnswer: true,
    errors: [400, 403, 409, 429],
  }),
  'POST /totp/verify': route({
    summary: "Turn the authenticator app on with its first code (ends the user's other sessions)",
    description: NEEDS_PASSWORD,
    tag: secondFactor,
    access: 'session',
    json: totpVerifyBodySchema,
    answer: userAnswerSchema,
    errors: [400, 403, 409, 415, 429],
  }),
  'POST /totp/disable': route({
    summary: 'Turn the authenticator app off with a code and the password (ends other sessions)',
    tag: secondFactor,
    access: 'session',
    json: totpDisableBodySchema,
    answer: userAnswerSchema,
    errors: [400, 409, 415, 429],
  }),

  'POST /webauthn/registration/options': route({
    summary: 'Start registering a security key: options for navigator.credentials.create()',
    description: NEEDS_PASSWORD,
    tag: secondFactor,
    access: 'session',
    json: passwordBodySchema,
    jsonOptional: true,
    answer: registrationOptionsSchema,
    errors: [400, 403, 409, 429],
  }),
  'POST /webauthn/registration/verify': route({
    summary: "Register the security key the browser created (ends the user's other sessions)",
    description: NEEDS_PASSWORD,
    tag: secondFactor,
    access: 'session',
    json: registrationVerifyBodySchema,
    answer: credentialsChangeSchema,
    errors: [400, 403, 409, 415, 429],
  }),
  'GET /webauthn/credentials': route({
    summary: "The signed-in user's security keys",
    tag: secondFactor,
    access: 'session',
    answer: credentialListSchema,
  }),
  'DELETE /webauthn/credentials/{id}': route({
    summary: "Remove one of your security keys (ends the user's other sessions)",
    description: NEEDS_PASSWORD,
    tag: secondFactor,
    access: 'session',
    json: passwordBodySchema,
    jsonOptional: true,
    answer: credentialsChangeSchema,
    errors: [400, 403, 404, 429],
  }),
  'POST /webauthn/authentication/verify': route({
    summary: "Complete a sign-in with the security key's answer",
    tag: signIn,
    access: 'public',
    json: authenticationResponseSchema,
    answer: sessionGrantSchema,
    errors: [400, 401, 415, 429],
  }),

  'GET /webauthn/admin/users/{id}/credentials': route({
    summary: "A user's security keys",
    tag: 'Administration',
    access: 'admin',
    answer: credentialListSchema,
    errors: [400, 404],
  }),
  'DELETE /webauthn/admin/credentials/{id}': route({
    summary: "Remove a user's security key (ends all of that user's sessions)",
    description:
      "The admin's own key needs the password like on the profile; the admin's current " +
      'session stays.',
    tag: 'Administration',
    access: 'admin',
    json: passwordBodySchema,
    jsonOptional: true,
    answer: credentialsChangeSchema,
    errors: [400, 403, 404, 429],
  }),
} as const;
