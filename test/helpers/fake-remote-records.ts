import type { IncomingHttpHeaders } from 'node:http';
import type { Json } from './fake-remote-activities.ts';
import type { Sent } from './fake-remote-follows.ts';
import type { SignatureCheck } from './fake-remote-verifier.ts';

/** What reached the fake remote, kept in arrays a test reads, and waits on them. */

/** A verified POST to an inbox. */
export interface Delivery {
  /** The account whose inbox it was, or 'shared'. */
  inbox: string;
  path: string;
  activity: Json;
  keyId: string;
  keyOwner: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the fake answered (202 unless answerInbox said otherwise). */
  status: number | 'hang';
}

/** A request refused for its signature (401), its body (400) or its size (413). */
export interface Refusal {
  method: string;
  path: string;
  reason: string;
  keyId: string | null;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET of an actor, collection or object, what its signature proved and the answer. */
export interface DocumentFetch extends SignatureCheck {
  path: string;
  status: number;
}

/** The four lists, a way to add to them that wakes waiters, and the waits. */
export function createRecords() {
  const deliveries: Delivery[] = [];
  const refused: Refusal[] = [];
  const gets: DocumentFetch[] = [];
  const sent: Sent[] = [];
  const waiters = new Set<() => void>();

  function record<T>(list: T[], item: T) {
    list.push(item);
    for (const wake of waiters) wake();
  }

  function waitFor<T>(list: T[], predicate: (item: T) => boolean, timeoutMs: number, what: string) {
    return new Promise<T>((resolve, reject) => {
      const matches = (item: T) => {
        try {
          return predicate(item);
        } catch {
          return false; // a predicate reading a shape this item does not have
        }
      };
      const check = () => {
        const found = list.find(matches);
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${what} matched within ${timeoutMs} ms (${list.length} recorded)`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  return {
    deliveries,
    refused,
    gets,
    sent,
    record,
    /** The first delivery (already there or to come) that matches; rejects after timeoutMs. */
    waitForDelivery: (predicate: (d: Delivery) => boolean, timeoutMs = 15_000) =>
      waitFor(deliveries, predicate, timeoutMs, 'delivery'),
    waitForRefusal: (predicate: (r: Refusal) => boolean, timeoutMs = 15_000) =>
      waitFor(refused, predicate, timeoutMs, 'refusal'),
    waitForGet: (predicate: (g: DocumentFetch) => boolean, timeoutMs = 15_000) =>
      waitFor(gets, predicate, timeoutMs, 'GET'),
    waitForSent: (predicate: (s: Sent) => boolean, timeoutMs = 15_000) =>
      waitFor(sent, predicate, timeoutMs, 'sent activity'),
  };
}
