import { z } from 'zod';

/**
 * The WebAuthn JSON a security-key ceremony exchanges: the options the server hands the browser
 * (navigator.credentials.create() / .get(), as @simplewebauthn/browser takes them) and the
 * browser's answer. Typed with the fields the vault uses; the browser library owns the rest.
 */

const descriptorSchema = z.object({
  id: z.string(),
  /** 'public-key' */
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

/** Extensions the vault may ask for; others pass through the browser library. */
const extensionsSchema = z.object({ credProps: z.boolean().optional() });

/** POST /webauthn/registration/options: the options for navigator.credentials.create(). */
export const registrationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(descriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  hints: z.array(z.string()).optional(),
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions: extensionsSchema.optional(),
});
export type RegistrationOptions = z.infer<typeof registrationOptionsSchema>;

/** The `options` of a sign-in that asks for a security key: for navigator.credentials.get(). */
export const authenticationOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(descriptorSchema).optional(),
  userVerification: z.string().optional(),
  hints: z.array(z.string()).optional(),
  extensions: extensionsSchema.optional(),
});
export type AuthenticationOptions = z.infer<typeof authenticationOptionsSchema>;

/** Any problem with the shape of the browser's answer is this one message. */
export const INVALID_KEY_RESPONSE = 'The security key response is not valid';
const invalid = { error: INVALID_KEY_RESPONSE };

const base64url = z
  .string(invalid)
  .max(16_384, invalid)
  .regex(/^[A-Za-z0-9_-]*$/, invalid);

/** The browser's PublicKeyCredential as JSON (what @simplewebauthn/browser returns). */
export const credentialJsonShape = {
  id: base64url.min(1, invalid),
  rawId: base64url.min(1, invalid),
  type: z.literal('public-key', invalid),
  clientExtensionResults: z.looseObject({}, invalid).optional().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform'], invalid).nullish(),
};

/** The `response` of navigator.credentials.create(). */
export const registrationResponseShape = z.looseObject(
  {
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string(invalid).max(32, invalid), invalid).max(16, invalid).optional(),
  },
  invalid,
);

/** POST /webauthn/authentication/verify: the browser's answer to navigator.credentials.get(). */
export const authenticationResponseSchema = z.looseObject({
  ...credentialJsonShape,
  response: z.looseObject(
    {
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
      userHandle: base64url.nullish(),
    },
    invalid,
  ),
});
export type AuthenticationResponse = z.input<typeof authenticationResponseSchema>;
