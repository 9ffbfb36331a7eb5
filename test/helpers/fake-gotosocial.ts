import type { Delivery, FakeRemote, Json } from './fake-remote.ts';

/**
 * A GoToSocial-shaped receiver on a fake remote: what GoToSocial keeps of the Create(Note)
 * deliveries to one of its accounts. GoToSocial (internal/federation/federatingdb/create.go,
 * `shouldAcceptStatusable`) keeps a status delivered to an account's inbox only when
 * - a Mention tag names the account: its `href` is the account's id (or URL), or, without
 *   `href`, its `name` is `@username@host` of that server; or
 * - the account follows the requester (the actor whose key signed the delivery).
 * A status the requester did not write (forwarded) is fetched again from its origin instead;
 * the vault never forwards, so such a delivery counts as not kept here. Everything else is
 * answered 202 and dropped. Its accounts have no shared inbox: each is delivered to alone.
 */
export function gotoSocialKept(
  remote: FakeRemote,
  name: string,
  /** The actor ids the account follows. */
  follows: readonly string[] = [],
): Json[] {
  const account = remote.account(name);
  return remote.deliveries
    .filter((d: Delivery) => d.path === `/users/${name}/inbox` && d.activity.type === 'Create')
    .map((d) => ({ delivery: d, note: d.activity.object as Json }))
    .filter(({ delivery, note }) => {
      if (typeof note !== 'object' || note === null) return false;
      if (note.attributedTo !== delivery.keyOwner) return false; // forwarded
      const tags = (Array.isArray(note.tag) ? note.tag : note.tag ? [note.tag] : []) as Json[];
      const mentioned = tags.some((tag) => {
        if (tag.type !== 'Mention') return false;
        if (typeof tag.href === 'string') return tag.href === account.id;
        return (
          typeof tag.name === 'string' &&
          tag.name.replace(/^@/, '').toLowerCase() === `${name}@${remote.host}`.toLowerCase()
        );
      });
      return mentioned || follows.includes(delivery.keyOwner);
    })
    .map(({ note }) => note);
}
