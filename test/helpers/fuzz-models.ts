import fc from 'fast-check';

/**
 * Valid-shaped request bodies per route, for the fuzz test: each field is mostly a plausible
 * value and sometimes anything at all. Keyed like the route table ('POST /api/auth/login').
 */

/** Stands for the acting user's real password in a body (alice's for anonymous). */
export const PASSWORD = '\u0000password';

export const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', 'x'.repeat(2000), '\u0000', '<script>', "'; DROP TABLE users; --"),
);
/** A field value: valid-looking, or anything JSON can hold. */
const valueOr = (...valid: unknown[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valid) },
    fc.jsonValue({ maxDepth: 3 }),
    text,
  );

const password = valueOr(PASSWORD, 'wrong password', '', 'x'.repeat(2000));
const code = valueOr('123456', '000000', 'ABCD-EFGH-JKLM', '12345', ' 123456 ');
const b64 = valueOr('AAAA', 'not base64!', '', 'A'.repeat(20000));

/** Valid-shaped JSON bodies of the routes that read JSON. */
export const JSON_MODELS: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  'POST /api/auth/login': { username: valueOr('alice', 'bob', 'ALICE', 'nobody'), password },
  'POST /api/auth/login/totp': { token: code, backup: valueOr(true, false) },
  'POST /api/auth/reauthenticate': { password },
  'POST /api/users': {
    username: valueOr('carol', 'alice', 'a', 'x'.repeat(100), 'Bad Name'),
    fullName: valueOr('Carol', ''),
    email: valueOr('carol@example.com', 'not-an-email'),
    password: valueOr('violet harbour lantern 42', 'short', PASSWORD),
    role: valueOr('USER', 'ADMIN', 'ROOT'),
  },
  'PATCH /api/users/:id': {
    fullName: valueOr('Renamed', ''),
    email: valueOr('new@example.com', 'nope'),
    role: valueOr('USER', 'ADMIN', 'ROOT'),
    password: valueOr(null, '', 'violet harbour lantern 42', 'short'),
  },
  'POST /api/beverages/:id/clone': { status: valueOr('TRIED', 'TO_TRY', 'DRUNK') },
  'POST /api/domain-blocks': {
    domain: valueOr('spam.example', 'SPAM.example:8443', 'https://x.example/', '', 'localhost'),
    note: valueOr('Spam', '', 'x'.repeat(501)),
  },
  'POST /api/beverages/:id/share': {
    userId: valueOr(1, 2, 3, 999999, 0, -1, 1.5, '2'),
    message: valueOr('Try this one', '', 'x'.repeat(281)),
  },
  'POST /api/beverages/:id/comments': {
    content: valueOr(
      'Lovely dram.',
      '',
      ' ',
      'x'.repeat(1001),
      'Ask @alice and @bob@nowhere.example',
    ),
    inReplyTo: valueOr(undefined, 1, 2, 999999, 0, -1, 1.5, '1'),
    private: valueOr(undefined, true, false, 'yes'),
  },
  'POST /api/activity/remote-entries/:id/comments': { content: valueOr('Lovely.', '') },
  'POST /api/notifications/:id/respond': {
    action: valueOr('ACCEPT', 'DECLINE', 'MAYBE'),
    status: valueOr('TRIED', 'TO_TRY', 'DRUNK', null),
  },
  'POST /api/webauthn/registration/options': { password },
  'POST /api/webauthn/registration/verify': {
    id: b64,
    rawId: b64,
    type: valueOr('public-key', 'password'),
    response: fc.record({
      clientDataJSON: b64,
      attestationObject: b64,
      transports: valueOr(['usb']),
    }),
    nickname: valueOr('My key', 'x'.repeat(100), null),
    password,
  },
  'DELETE /api/webauthn/credentials/:id': { password },
  'POST /api/webauthn/authentication/verify': {
    id: b64,
    rawId: b64,
    type: valueOr('public-key'),
    response: fc.record({ clientDataJSON: b64, authenticatorData: b64, signature: b64 }),
  },
  'DELETE /api/webauthn/admin/credentials/:id': { password },
  'POST /api/totp/setup': { password },
  'POST /api/totp/verify': { token: code, password },
  'POST /api/totp/disable': { token: code, password },
  'POST /inbox': activity(),
  'POST /users/:username/inbox': activity(),
};

function activity(): Record<string, fc.Arbitrary<unknown>> {
  const remote = valueOr('https://remote.invalid/actor', 'http://127.0.0.1:1/actor', 'not a url');
  return {
    '@context': valueOr(
      'https://www.w3.org/ns/activitystreams',
      'https://unreachable.invalid/context.jsonld',
      ['https://www.w3.org/ns/activitystreams', { '@vocab': 'https://x.invalid/#' }],
    ),
    id: remote,
    type: valueOr('Follow', 'Create', 'Undo', 'Delete', 'Like', 'Accept', 'Note'),
    actor: remote,
    object: valueOr('http://localhost:8080/users/alice', { type: 'Note', content: 'hi' }),
    signature: valueOr({ type: 'RsaSignature2017', creator: 'x', signatureValue: 'AAAA' }),
  };
}

/** Text fields of the routes that read form data, and their file fields. */
export const FORM_MODELS: Record<
  string,
  { fields: Record<string, fc.Arbitrary<string>>; file?: string }
> = {
  'POST /api/beverages': { fields: entryFields(), file: 'photo' },
  'PATCH /api/beverages/:id': {
    fields: { ...entryFields(), removePhoto: formValue('true', 'false', 'yes') },
    file: 'photo',
  },
  'PATCH /api/users/me': {
    fields: {
      fullName: formValue('Alice A.', ''),
      email: formValue('alice@example.org', 'nope'),
      bio: formValue('Peated, mostly.', 'x'.repeat(300)),
      activityPubEnabled: formValue('true', 'false', 'maybe'),
      removeAvatar: formValue('true', 'false'),
      currentPassword: formValue(PASSWORD, 'wrong'),
      newPassword: formValue('violet harbour lantern 42', 'short'),
    },
    file: 'avatar',
  },
};

function formValue(...valid: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...valid) }, text);
}

function entryFields(): Record<string, fc.Arbitrary<string>> {
  return {
    name: formValue('Lagavulin 16', '', 'x'.repeat(500)),
    type: formValue('WHISKEY', 'WINE', 'BEER', 'CIDER'),
    subtype: formValue('Bourbon', 'Scotch', 'IPA', 'Merlot'),
    rating: formValue('0', '5', '6', '-1', '2.5'),
    status: formValue('TRIED', 'TO_TRY', 'GONE'),
    inCellar: formValue('true', 'false', '1'),
    makerName: formValue('Distillery'),
    notes: formValue('Smoky.', 'x'.repeat(5000)),
  };
}

/** Stands for the acting user's username in a body (alice's for anonymous). */
export const USERNAME = '\u0000username';

type WellFormed = { json: unknown } | { form: Record<string, string> } | null;
const STRONG = 'violet harbour lantern 42 quince';
const keyResponse = { id: 'AAAA', rawId: 'AAAA', type: 'public-key' };

/**
 * A few requests per route that a client of the vault would send: a third of the fuzz runs use
 * them, so that the generated requests also reach what lies past validation.
 */
export const WELL_FORMED: Record<string, readonly WellFormed[]> = {
  'POST /api/auth/login': [{ json: { username: USERNAME, password: PASSWORD } }],
  'POST /api/auth/login/totp': [{ json: { token: '123456' } }],
  'POST /api/auth/reauthenticate': [{ json: { password: PASSWORD } }],
  'POST /api/users': [
    {
      json: {
        username: 'carol',
        fullName: 'C',
        email: 'c@example.com',
        password: STRONG,
        role: 'USER',
      },
    },
  ],
  'PATCH /api/users/:id': [{ json: { fullName: 'Renamed' } }, { json: { password: STRONG } }],
  'POST /api/beverages': [{ form: { name: 'Lagavulin 16', type: 'WHISKEY', rating: '4' } }],
  'PATCH /api/beverages/:id': [{ form: { notes: 'Smoky.' } }, { form: { removePhoto: 'true' } }],
  'POST /api/beverages/:id/clone': [null, { json: { status: 'TRIED' } }],
  'POST /api/domain-blocks': [
    { json: { domain: 'spam.example' } },
    { json: { domain: 'other.example:8443', note: 'Spam' } },
  ],
  'POST /api/beverages/:id/share': [
    { json: { userId: 2 } },
    { json: { userId: 3, message: 'Hi' } },
  ],
  'POST /api/notifications/:id/respond': [
    { json: { action: 'ACCEPT' } },
    { json: { action: 'ACCEPT', status: 'TO_TRY' } },
    { json: { action: 'DECLINE' } },
  ],
  'PATCH /api/users/me': [
    { form: { bio: 'Peated, mostly.' } },
    { form: { currentPassword: PASSWORD, newPassword: STRONG } },
  ],
  'POST /api/webauthn/registration/options': [{ json: { password: PASSWORD } }],
  'POST /api/webauthn/registration/verify': [
    { json: { ...keyResponse, response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } } },
  ],
  'DELETE /api/webauthn/credentials/:id': [{ json: { password: PASSWORD } }],
  'POST /api/webauthn/authentication/verify': [
    {
      json: {
        ...keyResponse,
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      },
    },
  ],
  'DELETE /api/webauthn/admin/credentials/:id': [null, { json: { password: PASSWORD } }],
  'POST /api/totp/setup': [{ json: { password: PASSWORD } }],
  'POST /api/totp/verify': [{ json: { token: '123456', password: PASSWORD } }],
  'POST /api/totp/disable': [{ json: { token: '123456', password: PASSWORD } }],
  'POST /inbox': [{ json: follow() }],
  'POST /users/:username/inbox': [{ json: follow() }],
};

function follow() {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: 'https://remote.invalid/follows/1',
    type: 'Follow',
    actor: 'https://remote.invalid/actor',
    object: 'http://localhost:8080/users/alice',
  };
}
