import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { presentCredential } from '../auth/webauthn.ts';
import { badRequest } from '../domain-error.ts';
import { idParam, parseWith, readJson } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/env.ts';
import { currentPassword, readOptionalPassword } from '../http/reauthentication.ts';
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
 * registering and removing a key need the current password (in the body as `password`, or
 * entered in this session within the last minutes) and end the user's other sessions;
 * authentication/verify completes a pending login (it needs no session); admin routes list
 * and remove any user's keys.
 */
export function webauthnRoutes(ctx: AppContext, cookie: CookiePolicy): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const origin = ctx.config.origin;
  const pendingCookie = pendingCookiePolicy(origin);
  const list = (userId: number) => ctx.webauthn.list(userId).map(presentCredential);
  const reauthenticated = (c: Context<AppEnv>, password: string | undefined) =>
    ctx.reauth.require(
      c.get('session')!,
      currentUser(c),
      password,
      clientAddress(c, ctx.config.trustProxy),
    );

  routes.post('/registration/options', requireUser, async (c) => {
    await reauthenticated(c, await readOptionalPassword(c));
    const session = c.get('session')!;
    const options = await ctx.webauthn.registrationOptions(currentUser(c), session.idHash);
    return c.json(options);
  });

  routes.post('/registration/verify', requireUser, async (c) => {
    const body = await readJson(c, z.looseObject({}));
    const { nickname: rawNickname, password: rawPassword, ...rest } = body;
    const nickname = parseWith(nicknameSchema, rawNickname);
    const password = parseWith(currentPassword, rawPassword);
    const response = parseCeremony(registrationResponse, rest) as RegistrationResponseJSON;
    await reauthenticated(c, password);
    const session = c.get('session')!;
    const result = await ctx.webauthn.register(currentUser(c), session.idHash, response, nickname);
    ctx.reauth.secondFactorChanged(result.user.id, session.idHash);
    return c.json({
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    });
  });

  routes.get('/credentials', requireUser, (c) => c.json({ credentials: list(currentUser(c).id) }));

  routes.delete('/credentials/:id', requireUser, async (c) => {
    const id = idParam(c, 'id', 'Security key');
    await reauthenticated(c, await readOptionalPassword(c));
    const result = ctx.webauthn.removeOwn(currentUser(c), id);
    ctx.reauth.secondFactorChanged(result.user.id, c.get('session')!.idHash);
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

  /**
   * An admin removes a user's key: all of that user's sessions end. An admin's own key needs
   * the password like on the profile page, and the admin's current session stays.
   */
  routes.delete('/admin/credentials/:id', requireAdmin, async (c) => {
    const id = idParam(c, 'id', 'Security key');
    const password = await readOptionalPassword(c);
    if (ctx.webauthn.ownerOf(id) === currentUser(c).id) await reauthenticated(c, password);
    const result = ctx.webauthn.removeAny(id);
    ctx.reauth.secondFactorChanged(result.user.id, c.get('session')!.idHash);
    return c.json({
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    });
  });

  return routes;
}
