import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { bindActivities } from './fake-remote-bound-activities.ts';
import type { Json } from './fake-remote-activities.ts';
import { json, readBody, sendRequest, type OutgoingRequest } from './fake-remote-http.ts';
import { createFollows } from './fake-remote-follows.ts';
import { createRecords } from './fake-remote-records.ts';
import {
  ACTIVITY_JSON,
  actorDocument,
  newAccount,
  orderedCollection,
  nodeInfo,
  nodeInfoLinks,
  webfingerJrd,
  type AccountProfile,
  type FakeAccount,
} from './fake-remote-documents.ts';
import { createSignatureVerifier } from './fake-remote-verifier.ts';
import { signRequest } from './http-signatures.ts';
import { sharedTestCertificate, type TestCertificate } from './tls.ts';

export { ACTIVITY_JSON, type AccountProfile, type FakeAccount };
export type { Delivery, DocumentFetch, Refusal } from './fake-remote-records.ts';
export type { Sent } from './fake-remote-follows.ts';
export { PUBLIC, type Json, type NoteExtension, type NoteInput } from './fake-remote-activities.ts';

/**
 * A Mastodon-shaped fediverse server on loopback, written without Fedify: its accounts have
 * their own RSA keys; it serves WebFinger, actors, collections and what it published; it
 * verifies the draft-cavage signature of every inbox POST (and, in authorized-fetch mode, of
 * every GET) itself, records what arrived, and signs what it sends.
 */

const ACCEPT_AP = `${ACTIVITY_JSON}, application/ld+json; profile="https://www.w3.org/ns/activitystreams"`;

export interface FakeRemoteOptions {
  /** Serve https with `certificate` (by default the test process's shared one). */
  https?: boolean;
  certificate?: TestCertificate;
  /** Mastodon's secure mode: unsigned GETs of actors, collections and objects get 401. */
  authorizedFetch?: boolean;
  /** Refuse a delivery whose activity's actor is not the key's owner (true, as Mastodon). */
  requireActorOwnsKey?: boolean;
  /** Allowed distance of a request's Date from now (12 hours, as Mastodon). */
  maxDateSkewMs?: number;
  /** Accept Follows of accounts that do not approve followers manually (true, as Mastodon). */
  autoAccept?: boolean;
  /** Extra PEM certificates its own requests trust (its own certificate always is). */
  trust?: string[];
  /** The software its NodeInfo names ('mastodon' by default); null: it serves no NodeInfo. */
  software?: string | null;
}

export type InboxAnswer = { status: number; body?: string } | 'hang';

export interface SignOptions {
  /** Claim another key id than the account's own (to forge). */
  keyId?: string;
  signedHeaders?: string[];
  date?: Date;
}

export async function startFakeRemote(options: FakeRemoteOptions = {}) {
  const certificate = options.https ? (options.certificate ?? sharedTestCertificate()) : undefined;
  const trust = [...(certificate ? [certificate.cert] : []), ...(options.trust ?? [])];
  const accounts = new Map<string, FakeAccount>();
  const published = new Map<string, Json>();
  const files = new Map<string, { body: Buffer; type: string }>();
  const answers = new Map<string, InboxAnswer>();
  const records = createRecords();
  const { deliveries, refused, gets, sent, record } = records;
  let origin = '';
  let host = '';

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(error) });
    });
  };
  const server = certificate
    ? https.createServer({ key: certificate.key, cert: certificate.cert }, listener)
    : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = `${certificate ? 'https' : 'http'}://${host}`;

  /** Mastodon's instance actor: signs the fake's key fetches; public even in secure mode. */
  const instance = newAccount(origin, host, `${origin}/actor`, { name: host });
  const verifier = createSignatureVerifier({
    fetchDocument: (url) => signedGet(instance.username, url),
    maxDateSkewMs: options.maxDateSkewMs,
  });

  function account(name: string): FakeAccount {
    const found = name === instance.username ? instance : accounts.get(name);
    if (!found) throw new Error(`the fake remote has no account ${name}`);
    return found;
  }

  function actorDocumentOf(a: FakeAccount): Json {
    return actorDocument(a, a === instance ? 'Application' : 'Person');
  }

  function document(pathname: string): { status: number; body?: Json } {
    if (pathname === '/actor') return { status: 200, body: actorDocumentOf(instance) };
    const match = /^\/users\/([^/]+)(?:\/(followers|following|outbox))?$/.exec(pathname);
    const a = match ? accounts.get(decodeURIComponent(match[1]!)) : undefined;
    if (match && a) {
      if (a.gone) return { status: 410 };
      if (!match[2]) return { status: 200, body: actorDocumentOf(a) };
      const items = match[2] === 'followers' ? follows.followers(a.username) : [];
      return { status: 200, body: orderedCollection(`${a.id}/${match[2]}`, items) };
    }
    const object = published.get(`${origin}${pathname}`);
    return object ? { status: 200, body: object } : { status: 404 };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'POST') return receive(req, res, url);
    if (url.pathname === '/.well-known/webfinger') return webfinger(res, url);
    const software = options.software === undefined ? 'mastodon' : options.software;
    if (software !== null && url.pathname === '/.well-known/nodeinfo') {
      return json(res, 200, nodeInfoLinks(origin));
    }
    if (software !== null && url.pathname === '/nodeinfo/2.0') {
      return json(res, 200, nodeInfo(accounts.size, software));
    }
    const file = files.get(url.pathname);
    if (file) return void res.writeHead(200, { 'content-type': file.type }).end(file.body);
    const found = document(url.pathname);
    if (url.pathname === '/actor') return json(res, found.status, found.body, ACTIVITY_JSON);
    const signed = await verifier.check(req, url);
    const status = options.authorizedFetch && !signed.verified ? 401 : found.status;
    record(gets, { path: url.pathname + url.search, ...signed, status });
    if (status !== 200) return json(res, status, { error: signed.reason ?? 'not here' });
    json(res, 200, found.body, ACTIVITY_JSON);
  }

  function webfinger(res: ServerResponse, url: URL) {
    const resource = url.searchParams.get('resource') ?? '';
    const acct = /^acct:([^@]+)@(.+)$/.exec(resource);
    const byHandle =
      acct && (acct[2] === host || acct[2] === '127.0.0.1' || acct[2] === 'localhost');
    const a = byHandle
      ? accounts.get(acct![1]!)
      : [...accounts.values()].find((x) => x.id === resource || x.url === resource);
    if (!a || a.gone) return json(res, 404, { error: 'no such account' });
    json(res, 200, webfingerJrd(a, host), 'application/jrd+json');
  }

  async function receive(req: IncomingMessage, res: ServerResponse, url: URL) {
    const target =
      url.pathname === '/inbox' ? 'shared' : /^\/users\/([^/]+)\/inbox$/.exec(url.pathname)?.[1];
    if (!target || (target !== 'shared' && !accounts.has(target))) return json(res, 404, {});
    const body = await readBody(req);
    const refuse = (status: number, reason: string, keyId: string | null) => {
      const text = body?.toString('utf8') ?? '';
      record(refused, {
        method: 'POST',
        path: url.pathname,
        reason,
        keyId,
        headers: req.headers,
        body: text,
      });
      json(res, status, { error: reason });
    };
    if (!body) return refuse(413, 'a body over 1 MB', null);
    const signed = await verifier.check(req, url, body);
    if (!signed.verified) return refuse(401, signed.reason!, signed.keyId);
    let activity: Json | null = null;
    try {
      activity = JSON.parse(body.toString('utf8')) as Json;
    } catch {
      // refused below
    }
    if (typeof activity !== 'object' || activity === null || Array.isArray(activity)) {
      return refuse(400, 'a body that is not a JSON object', signed.keyId);
    }
    const actor =
      typeof activity.actor === 'object' ? (activity.actor as Json)?.id : activity.actor;
    if ((options.requireActorOwnsKey ?? true) && actor !== signed.keyOwner) {
      return refuse(
        401,
        `the actor ${String(actor)} does not own the key ${signed.keyId}`,
        signed.keyId,
      );
    }
    const answer = answers.get(target) ?? { status: 202 };
    record(deliveries, {
      inbox: target,
      path: url.pathname,
      activity,
      keyId: signed.keyId!,
      keyOwner: signed.keyOwner,
      headers: req.headers,
      body: body.toString('utf8'),
      status: answer === 'hang' ? 'hang' : answer.status,
    });
    if (answer === 'hang') return; // closed by close()
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body ?? '');
    if (answer.status < 300) follows.received(activity);
  }

  function sign(name: string, request: OutgoingRequest, signOptions: SignOptions = {}) {
    const a = account(name);
    return signRequest({
      method: request.method ?? 'GET',
      url: request.url,
      headers: request.headers,
      body: request.body,
      keyId: signOptions.keyId ?? a.keyId,
      privateKey: a.privateKey,
      signedHeaders: signOptions.signedHeaders,
      date: signOptions.date,
    });
  }

  function send(request: OutgoingRequest & { timeoutMs?: number }) {
    return sendRequest(request, trust);
  }

  function post(name: string, inboxUrl: string, activity: unknown, signOptions: SignOptions = {}) {
    const request = {
      method: 'POST',
      url: inboxUrl,
      headers: { 'content-type': ACTIVITY_JSON },
      body: JSON.stringify(activity),
    };
    return send({ ...request, headers: sign(name, request, signOptions) });
  }

  function signedGet(name: string, url: string, signOptions: SignOptions = {}) {
    const request = { method: 'GET', url, headers: { accept: ACCEPT_AP } };
    return send({ ...request, headers: sign(name, request, signOptions) });
  }

  const follows = createFollows({
    autoAccept: options.autoAccept ?? true,
    account,
    accountById: (id) => [...accounts.values()].find((a) => a.id === id && !a.gone),
    signedGet,
    post,
    recordSent: (item) => record(sent, item),
  });

  function publish<T extends Json>(object: T): T {
    if (typeof object.id === 'string' && !object.id.includes('#')) published.set(object.id, object);
    return object;
  }

  const activities = bindActivities({
    account,
    actorDocument: (a) => actorDocumentOf(a),
    publish,
    unpublish: (id) => published.delete(id),
  });

  return {
    origin,
    /** host:port, the domain part of its handles. */
    host,
    instanceActor: instance,
    deliveries,
    refused,
    gets,
    /** What the fake sent by itself or through deliver, acceptFollow and rejectFollow. */
    sent,
    activities,
    /** The certificate it serves https with, if it does (caFile and env for child processes). */
    certificate,
    addAccount(name: string, profile: AccountProfile = {}): FakeAccount {
      if (accounts.has(name)) throw new Error(`the account ${name} exists`);
      const a = newAccount(origin, name, `${origin}/users/${encodeURIComponent(name)}`, profile);
      accounts.set(name, a);
      return a;
    },
    account,
    /** `name@host:port` */
    handle: (name: string) => `${account(name).username}@${host}`,
    actorDocument: (name: string) => actorDocumentOf(account(name)),
    /** From now on its actor, key and WebFinger answer 410/404 (the account was deleted). */
    removeAccount(name: string) {
      account(name).gone = true;
    },
    /** How an account's inbox ('shared' for /inbox) answers verified deliveries; null resets. */
    answerInbox(inbox: string, answer: InboxAnswer | null) {
      if (answer) answers.set(inbox, answer);
      else answers.delete(inbox);
    },
    /** Serves bytes publicly (an avatar, a photo); returns the URL. */
    serveFile(pathname: string, body: Buffer, type: string): string {
      files.set(pathname, { body, type });
      return `${origin}${pathname}`;
    },
    publish,
    clearKeyCache: () => verifier.clearCache(),
    sign,
    send,
    post,
    signedGet,
    waitForDelivery: records.waitForDelivery,
    waitForRefusal: records.waitForRefusal,
    waitForGet: records.waitForGet,
    waitForSent: records.waitForSent,
    /** Sends an activity to an actor, looking up its (shared) inbox with a signed GET. */
    deliver: follows.deliver,
    acceptFollow: follows.acceptFollow,
    rejectFollow: follows.rejectFollow,
    /** The actor ids that follow an account (served as its followers collection). */
    followers: follows.followers,
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

export type FakeRemote = Awaited<ReturnType<typeof startFakeRemote>>;
