import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { presentCredential } from '../auth/webauthn.ts';
import { badRequest } from '../domain-error.ts';
import { idParam, parseWith, readJson } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/env.ts';
import {
  clearPendingCookie,
  pendingCookiePolicy,
  readPendingCookie,
} from '../http/pending-login.ts';
import { currentUser, requireAdmin, requireUser, type CookiePolicy } from '../http/session.ts';
import { startSession } from '../http/sign-in.ts';
import { presentUser } from '../users/present.ts';

export const NICKNAME_MAX_LENGTH = 64;
const INVALID_RESPONSE = 'The security key response is not valid';

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/);

/** The browser's PublicKeyCredential as JSON (what @simplewebauthn/browser returns). */
const credentialJson = {
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  clientExtensionResults: z.looseObject({}).optional().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).nullish(),
};

const registrationResponse = z.looseObject({
  ...credentialJson,
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(16).optional(),
  }),
});

const authenticationResponse = z.looseObject({
  ...credentialJson,
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.nullish(),
  }),
});

const nicknameSchema = z
  .string({ error: 'The nickname must be text' })
  .trim()
  .max(NICKNAME_MAX_LENGTH, `The nickname must be at most ${NICKNAME_MAX_LENGTH} characters long`)
  .nullish()
  .transform((v) => (v ? v : null));

/** Parses a ceremony response; any problem with its shape is one plain message. */
function parseCeremony<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(INVALID_RESPONSE);
  return result.data;
}

/**
 * /api/webauthn: security keys. Registration and the key list are for the signed-in user;
 * authentication/verify completes a pending login (it needs no session); admin routes list
 * and remove any user's keys.
 */
export function webauthnRoutes(ctx: AppContext, cookie: CookiePolicy): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const origin = ctx.config.origin;
  const pendingCookie = pendingCookiePolicy(origin);
  const list = (userId: number) => ctx.webauthn.list(userId).map(presentCredential);

  routes.post('/registration/options', requireUser, async (c) => {
    const session = c.get('session')!;
    const options = await ctx.webauthn.registrationOptions(currentUser(c), session.idHash);
    return c.json(options);
  });

  routes.post('/registration/verify', requireUser, async (c) => {
    const body = await readJson(c, z.looseObject({}));
    const { nickname: rawNickname, ...rest } = body;
    const nickname = parseWith(nicknameSchema, rawNickname);
    const response = parseCeremony(registrationResponse, rest) as RegistrationResponseJSON;
    const session = c.get('session')!;
    const result = await ctx.webauthn.register(currentUser(c), session.idHash, response, nickname);
    return c.json({
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    });
  });

  routes.get('/credentials', requireUser, (c) => c.json({ credentials: list(currentUser(c).id) }));

  routes.delete('/credentials/:id', requireUser, (c) => {
    const id = idParam(c, 'id', 'Security key');
    const result = ctx.webauthn.removeOwn(currentUser(c), id);
    return c.json({
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    });
  });

  /** The second step with a security key: completes the pending login of this browser. */
  routes.post('/authentication/verify', async (c) => {
    const body = await readJson(c, z.unknown());
    const response = parseCeremony(authenticationResponse, body) as AuthenticationResponseJSON;
    const address = clientAddress(c, ctx.config.trustProxy);
    let user;
    try {
      user = await ctx.login.withWebAuthn(readPendingCookie(c, pendingCookie), response, address);
    } catch (error) {
      // An ended pending login takes its cookie with it.
      if (!ctx.pendingLogins.resolve(readPendingCookie(c, pendingCookie))) {
        clearPendingCookie(c, pendingCookie);
      }
      throw error;
    }
    clearPendingCookie(c, pendingCookie);
    startSession(
      c,
      { sessions: ctx.sessions, cookie, absoluteMs: ctx.config.sessionAbsoluteMs },
      user.id,
      address,
    );
    return c.json({ user: presentUser(user, origin), credentials: list(user.id) });
  });

  routes.get('/admin/users/:id/credentials', requireAdmin, (c) => {
    const userId = idParam(c, 'id', 'User');
    return c.json({ credentials: ctx.webauthn.listForUser(userId).map(presentCredential) });
  });

  routes.delete('/admin/credentials/:id', requireAdmin, (c) => {
    const id = idParam(c, 'id', 'Security key');
    const result = ctx.webauthn.removeAny(id);
    return c.json({
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    });
  });

  return routes;
}
