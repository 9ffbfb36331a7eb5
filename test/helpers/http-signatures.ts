import { createHash, createSign, createVerify, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * draft-cavage HTTP Signatures (version 12, as Mastodon signs and verifies them), written with
 * node:crypto only, independently of Fedify, so tests can check the vault's signatures against
 * a second implementation and sign requests the vault must verify.
 */

/** Header values as node:http gives them (lowercase names). */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** What Mastodon requires a signed POST to cover. */
export const REQUIRED_POST_HEADERS = ['(request-target)', 'host', 'date', 'digest'] as const;
/** What Mastodon requires a signed GET to cover. */
export const REQUIRED_GET_HEADERS = ['(request-target)', 'host', 'date'] as const;
/** Mastodon refuses a Date further than this from its clock. */
export const MAX_DATE_SKEW_MS = 12 * 60 * 60 * 1000;

/** `SHA-256=<base64>`: the Digest header of a body. */
export function sha256Digest(body: string | Uint8Array): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

export interface SignInput {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  /** A POST's body: its Digest header is added (unless given). */
  body?: string | Uint8Array;
  keyId: string;
  privateKey: KeyObject | string;
  /** What to sign, in order. By default what Mastodon signs (see signedHeadersFor). */
  signedHeaders?: readonly string[];
  /** The Date header's time (now by default). */
  date?: Date;
}

/** Mastodon's choice: "(request-target) host date digest content-type" with a body, else "... accept". */
export function signedHeadersFor(headers: Record<string, string>, hasBody: boolean): string[] {
  const names = ['(request-target)', 'host', 'date'];
  if (hasBody) names.push('digest', 'content-type');
  else names.push('accept');
  return names.filter((name) => name.startsWith('(') || headers[name] !== undefined);
}

/**
 * The request's headers (lowercase names) with Host, Date, Digest (for a body) and an
 * rsa-sha256 Signature added. Send exactly these headers with exactly this body.
 */
export function signRequest(input: SignInput): Record<string, string> {
  const url = new URL(input.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  headers.host ??= url.host;
  headers.date ??= (input.date ?? new Date()).toUTCString();
  if (input.body !== undefined) headers.digest ??= sha256Digest(input.body);
  const names = [...(input.signedHeaders ?? signedHeadersFor(headers, input.body !== undefined))];
  const text = signingString(names, input.method, url.pathname, headers);
  const signature = createSign('RSA-SHA256').update(text).sign(input.privateKey, 'base64');
  headers.signature =
    `keyId="${input.keyId}",algorithm="rsa-sha256",` +
    `headers="${names.join(' ')}",signature="${signature}"`;
  return headers;
}

/** The text a signature covers; throws when a named header is absent. */
export function signingString(
  names: readonly string[],
  method: string,
  target: string,
  headers: HeaderBag,
): string {
  return names
    .map((name) => {
      if (name === '(request-target)') return `(request-target): ${method.toLowerCase()} ${target}`;
      const value = headers[name];
      if (value === undefined) throw new Error(`the signed header ${name} is missing`);
      return `${name}: ${(Array.isArray(value) ? value.join(', ') : value).trim()}`;
    })
    .join('\n');
}

export interface ParsedSignature {
  keyId: string;
  algorithm: string | undefined;
  headers: string[];
  signature: string;
}

/** The fields of a Signature header, or null when it is not a draft-cavage signature. */
export function parseSignatureHeader(value: string): ParsedSignature | null {
  const fields = new Map<string, string>();
  for (const match of value.matchAll(/([A-Za-z]+)="([^"]*)"/g)) fields.set(match[1]!, match[2]!);
  const keyId = fields.get('keyId');
  const signature = fields.get('signature');
  if (!keyId || !signature) return null;
  return {
    keyId,
    algorithm: fields.get('algorithm'),
    // "Date" is the default when headers is absent (draft-cavage 12, 2.1.6).
    headers: (fields.get('headers') ?? 'date').toLowerCase().split(/\s+/).filter(Boolean),
    signature,
  };
}

export interface IncomingSignedRequest {
  method: string;
  /** The path as received (with its query, if any). */
  path: string;
  headers: HeaderBag;
  /** The raw body of a POST. */
  body?: Buffer;
}

export type Inspection =
  | { ok: true; signature: ParsedSignature; candidates: string[] }
  | { ok: false; reason: string; keyId?: string };

/**
 * Everything that can be checked before the key is fetched: a draft-cavage Signature header,
 * an accepted algorithm, the required headers covered, a Date within the allowed skew, and for
 * a body a SHA-256 Digest that matches it. Returns the signing strings to verify: with the
 * path alone (what Mastodon and Fedify sign) and, when there is a query, with it.
 */
export function inspectSignedRequest(
  request: IncomingSignedRequest,
  options: { required?: readonly string[]; maxSkewMs?: number; now?: Date } = {},
): Inspection {
  const { headers } = request;
  const header = first(headers.signature);
  if (headers['signature-input'] !== undefined) {
    return { ok: false, reason: 'an RFC 9421 signature (only draft-cavage is accepted)' };
  }
  if (!header) return { ok: false, reason: 'no Signature header' };
  const signature = parseSignatureHeader(header);
  if (!signature) return { ok: false, reason: 'a malformed Signature header' };
  const fail = (reason: string): Inspection => ({ ok: false, reason, keyId: signature.keyId });
  const algorithm = signature.algorithm?.toLowerCase();
  if (algorithm !== undefined && algorithm !== 'rsa-sha256' && algorithm !== 'hs2019') {
    return fail(`the unsupported algorithm ${algorithm}`);
  }
  const hasBody = request.body !== undefined;
  const required = options.required ?? (hasBody ? REQUIRED_POST_HEADERS : REQUIRED_GET_HEADERS);
  const uncovered = required.filter((name) => !signature.headers.includes(name));
  if (uncovered.length > 0) return fail(`the signature does not cover ${uncovered.join(', ')}`);

  const date = Date.parse(first(headers.date) ?? '');
  if (Number.isNaN(date)) return fail('no valid Date header');
  const skew = Math.abs(date - (options.now ?? new Date()).getTime());
  if (skew > (options.maxSkewMs ?? MAX_DATE_SKEW_MS)) return fail('a Date too far from now');

  if (hasBody) {
    const digest = digestProblem(first(headers.digest), request.body!);
    if (digest) return fail(digest);
  }
  const pathOnly = request.path.split('?')[0]!;
  const targets = pathOnly === request.path ? [pathOnly] : [pathOnly, request.path];
  try {
    const candidates = targets.map((target) =>
      signingString(signature.headers, request.method, target, headers),
    );
    return { ok: true, signature, candidates };
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** Whether one of the signing strings verifies against the public key. */
export function verifySignature(
  signature: ParsedSignature,
  candidates: readonly string[],
  publicKeyPem: string,
): boolean {
  return candidates.some((text) => {
    try {
      return createVerify('RSA-SHA256')
        .update(text)
        .verify(publicKeyPem, signature.signature, 'base64');
    } catch {
      return false;
    }
  });
}

function digestProblem(header: string | undefined, body: Buffer): string | null {
  if (!header) return 'no Digest header';
  const expected = createHash('sha256').update(body).digest();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim().toLowerCase() !== 'sha-256') continue;
    const given = Buffer.from(part.slice(at + 1).trim(), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? null
      : 'a Digest that does not match the body';
  }
  return 'no SHA-256 Digest';
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
