import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software security key for API tests: EC P-256 (ES256) credentials, 'none' attestation,
 * CBOR and COSE encoded by hand. It answers the JSON options the server sends with the JSON a
 * browser (@simplewebauthn/browser) would post back. Independent of the server's WebAuthn code.
 */

// Minimal CBOR (RFC 8949): unsigned and negative integers, byte strings, text strings, maps.
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function cborEncode(value: Cbor): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cborEncode(k), cborEncode(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** COSE_Key of the public key: kty EC2, alg ES256, crv P-256, x, y. */
  cosePublicKey: Buffer;
  counter: number;
  userHandle: string | undefined;
}

export interface RegistrationOptionsJson {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}

export interface AuthenticationOptionsJson {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export function createSoftAuthenticator(origin: string) {
  const rpId = new URL(origin).hostname;
  const credentials: SoftCredential[] = [];

  function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  return {
    credentials,

    /** navigator.credentials.create(): a new credential, answered as RegistrationResponseJSON. */
    register(
      options: RegistrationOptionsJson,
      overrides: { origin?: string; transports?: string[] } = {},
    ) {
      const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
      if (credentials.some((c) => excluded.has(b64url(c.id)))) {
        throw new Error('InvalidStateError: this authenticator is already registered');
      }
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cosePublicKey = cborEncode(
        new Map<Cbor, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const credential: SoftCredential = {
        id: randomBytes(32),
        privateKey,
        cosePublicKey,
        counter: 0,
        userHandle: options.user.id,
      };
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credential.id.length);
      const authData = Buffer.concat([
        sha256(options.rp.id ?? rpId),
        Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
        uint32(credential.counter),
        Buffer.alloc(16), // AAGUID: none
        idLength,
        credential.id,
        cosePublicKey,
      ]);
      const attestationObject = cborEncode(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      const clientDataJSON = overrides.origin
        ? Buffer.from(
            JSON.stringify({
              type: 'webauthn.create',
              challenge: options.challenge,
              origin: overrides.origin,
              crossOrigin: false,
            }),
          )
        : clientData('webauthn.create', options.challenge);
      credentials.push(credential);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: overrides.transports ?? ['usb'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'cross-platform' as const,
      };
    },

    /**
     * navigator.credentials.get(): an assertion by the first allowed credential this
     * authenticator holds. `counter` forces the signature counter (to test regressions).
     */
    authenticate(
      options: AuthenticationOptionsJson,
      overrides: { counter?: number; credentialIndex?: number } = {},
    ) {
      const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
      const credential =
        overrides.credentialIndex !== undefined
          ? credentials[overrides.credentialIndex]
          : credentials.find((c) => allowed.size === 0 || allowed.has(b64url(c.id)));
      if (!credential) throw new Error('NotAllowedError: no matching credential');
      credential.counter = overrides.counter ?? credential.counter + 1;
      const authData = Buffer.concat([
        sha256(options.rpId ?? rpId),
        Buffer.from([FLAG_UP | FLAG_UV]),
        uint32(credential.counter),
      ]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      // ES256: ECDSA over SHA-256, DER-encoded (node's default for EC keys).
      const signature = sign(
        'sha256',
        Buffer.concat([authData, sha256(clientDataJSON)]),
        credential.privateKey,
      );
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(credential.userHandle ? { userHandle: credential.userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'cross-platform' as const,
      };
    },
  };
}

export type SoftAuthenticator = ReturnType<typeof createSoftAuthenticator>;
