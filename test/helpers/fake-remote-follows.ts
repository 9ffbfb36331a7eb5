import * as build from './fake-remote-activities.ts';
import type { Json } from './fake-remote-activities.ts';
import type { FakeAccount } from './fake-remote-documents.ts';
import type { FakeResponse } from './fake-remote-http.ts';

/** An activity the fake remote sent, and how the receiving inbox answered. */
export interface Sent {
  from: string;
  url: string;
  activity: Json;
  /** The answer's status, or the error that stopped the request. */
  status: number | string;
}

/**
 * Followers of the fake's accounts, as Mastodon keeps them: a Follow of an account that does
 * not approve followers manually is accepted at once (Accept to the follower's shared inbox,
 * or its inbox), one that does waits for acceptFollow or rejectFollow; Undo(Follow) removes.
 */
export function createFollows(options: {
  autoAccept: boolean;
  account(name: string): FakeAccount;
  accountById(id: string): FakeAccount | undefined;
  signedGet(name: string, url: string): Promise<FakeResponse>;
  post(name: string, inboxUrl: string, activity: unknown): Promise<FakeResponse>;
  recordSent(sent: Sent): void;
}) {
  const followers = new Map<string, Set<string>>();
  const followersOf = (name: string) => {
    let set = followers.get(name);
    if (!set) followers.set(name, (set = new Set()));
    return set;
  };

  /** The follower's shared inbox if it has one, else its inbox. */
  async function inboxOf(name: string, actorId: string): Promise<string> {
    const response = await options.signedGet(name, actorId);
    if (response.status !== 200) throw new Error(`${actorId} answered ${response.status}`);
    const actor = response.json<{ inbox?: string; endpoints?: { sharedInbox?: string } }>();
    const inbox = actor.endpoints?.sharedInbox ?? actor.inbox;
    if (!inbox) throw new Error(`${actorId} has no inbox`);
    return inbox;
  }

  /** Sends an activity from an account to an actor (its inbox looked up), recorded in `sent`. */
  async function deliver(name: string, actorId: string, activity: Json): Promise<Sent> {
    let sent: Sent;
    try {
      const url = await inboxOf(name, actorId);
      const response = await options.post(name, url, activity);
      sent = { from: name, url, activity, status: response.status };
    } catch (error) {
      sent = { from: name, url: actorId, activity, status: (error as Error).message };
    }
    options.recordSent(sent);
    return sent;
  }

  function answer(type: 'Accept' | 'Reject', name: string, follow: Json): Promise<Sent> {
    const follower = String(follow.actor);
    if (type === 'Accept') followersOf(name).add(follower);
    else followersOf(name).delete(follower);
    const activity = (type === 'Accept' ? build.accept : build.reject)(
      options.account(name),
      follow,
    );
    return deliver(name, follower, activity);
  }

  /** What a verified delivery means for the followers (called after the inbox answered). */
  function received(activity: Json): void {
    const inner = activity.object as Json | undefined;
    if (activity.type === 'Follow' && typeof activity.object === 'string') {
      const target = options.accountById(activity.object);
      if (target && options.autoAccept && !target.profile.manuallyApprovesFollowers) {
        void answer('Accept', target.username, activity);
      }
    } else if (activity.type === 'Undo' && inner?.type === 'Follow') {
      const target = options.accountById(String(inner.object));
      if (target) followersOf(target.username).delete(String(activity.actor));
    }
  }

  return {
    received,
    deliver,
    acceptFollow: (name: string, follow: Json) => answer('Accept', name, follow),
    rejectFollow: (name: string, follow: Json) => answer('Reject', name, follow),
    /** The actor ids following an account. */
    followers: (name: string): string[] => [...followersOf(name)],
  };
}
