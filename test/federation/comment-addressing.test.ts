import { describe, expect, it } from 'vitest';
import type { CommentAudience } from '../../contract/enums.ts';
import type { NoteParty } from '../../src/conversation/note-reads.ts';
import {
  commentAddressing,
  commentHtml,
  PUBLIC_COLLECTION,
  type CommentThread,
} from '../../federation/comment-addressing.ts';

/**
 * The addressing of a comment's Note for each audience (docs/federation.md, "The audience of a
 * comment's Note"): to, cc, its Mention tags, inReplyTo, and the mention links of its HTML.
 */

const ORIGIN = 'https://vault.example';
const local = (username: string, actorId: number): NoteParty => ({
  actorId,
  username,
  federates: true,
  uri: null,
  handle: null,
  inboxUrl: null,
  sharedInboxUrl: null,
});
const remote = (name: string, actorId: number): NoteParty => ({
  actorId,
  username: null,
  federates: true,
  uri: `https://social.example/users/${name}`,
  handle: `@${name}@social.example`,
  inboxUrl: `https://social.example/users/${name}/inbox`,
  sharedInboxUrl: 'https://social.example/inbox',
});
const carol = local('carol', 1);
const bob = remote('bob', 2);
const ann = remote('ann', 3);

/** carol answers bob's reply (`https://social.example/users/bob/statuses/9`) on alice's entry. */
function thread(audience: CommentAudience, changes: Partial<CommentThread> = {}): CommentThread {
  return {
    origin: ORIGIN,
    entryNote: `${ORIGIN}/users/alice/entries/7`,
    entryAuthor: { uri: `${ORIGIN}/users/alice`, handle: 'alice@vault.example' },
    localEntry: true,
    comment: {
      id: 12,
      audience,
      author: carol,
      parent: { id: 11, uri: 'https://social.example/users/bob/statuses/9', author: bob },
    },
    addressees: audience === 'DIRECT' ? [{ ...bob, mentioned: false }] : [],
    ...changes,
  };
}

const mention = (party: NoteParty) => ({
  href: party.uri!,
  name: party.handle!,
  short: `@${party.handle!.split('@')[1]}`,
  local: false,
});
const alice = {
  href: `${ORIGIN}/users/alice`,
  name: '@alice@vault.example',
  short: '@alice',
};

describe('the addressing of a comment on a local entry', () => {
  it('PUBLIC: the owner’s followers, the owner and the answered author; never Public', () => {
    const addressing = commentAddressing(thread('PUBLIC'));
    expect(addressing).toEqual({
      inReplyTo: 'https://social.example/users/bob/statuses/9',
      to: [`${ORIGIN}/users/alice/followers`],
      cc: [`${ORIGIN}/users/alice`, bob.uri],
      mentions: [alice, mention(bob)],
      links: [mention(bob)],
    });
    expect(JSON.stringify(addressing)).not.toContain('#Public');
  });

  it('OWNER_FOLLOWERS: addressed as PUBLIC (an entry Note is never public)', () => {
    const { to, cc } = commentAddressing(thread('OWNER_FOLLOWERS'));
    expect({ to, cc }).toEqual({
      to: [`${ORIGIN}/users/alice/followers`],
      cc: [`${ORIGIN}/users/alice`, bob.uri],
    });
  });

  it('AUTHOR_FOLLOWERS: the author’s followers, the owner in cc', () => {
    const { to, cc } = commentAddressing(thread('AUTHOR_FOLLOWERS'));
    expect({ to, cc }).toEqual({
      to: [`${ORIGIN}/users/carol/followers`],
      cc: [`${ORIGIN}/users/alice`, bob.uri],
    });
  });

  it('DIRECT: its addressees only, no collection, the owner not mentioned', () => {
    const addressing = commentAddressing(thread('DIRECT'));
    expect(addressing).toEqual({
      inReplyTo: 'https://social.example/users/bob/statuses/9',
      to: [bob.uri],
      cc: [],
      mentions: [mention(bob)],
      links: [mention(bob)],
    });
  });

  it('a mentioned addressee is in cc and mentioned; a comment on the entry answers its Note', () => {
    const base = thread('PUBLIC');
    const addressing = commentAddressing({
      ...base,
      comment: { ...base.comment, parent: null },
      addressees: [{ ...ann, mentioned: true }],
    });
    expect(addressing).toEqual({
      inReplyTo: `${ORIGIN}/users/alice/entries/7`,
      to: [`${ORIGIN}/users/alice/followers`],
      cc: [`${ORIGIN}/users/alice`, ann.uri],
      mentions: [alice, mention(ann)],
      links: [mention(ann)],
    });
  });

  it('an answer to a local comment answers its Note id', () => {
    const base = thread('PUBLIC');
    const { inReplyTo, mentions } = commentAddressing({
      ...base,
      comment: { ...base.comment, parent: { id: 5, uri: null, author: local('dave', 4) } },
    });
    expect(inReplyTo).toBe(`${ORIGIN}/users/dave/comments/5`);
    expect(mentions.map((m) => m.href)).toEqual([`${ORIGIN}/users/alice`, `${ORIGIN}/users/dave`]);
  });
});

describe('the addressing of a comment on a remote vault’s entry', () => {
  it('PUBLIC: its author in to, the answered author and Public in cc', () => {
    const addressing = commentAddressing(
      thread('PUBLIC', {
        entryNote: 'https://social.example/users/ann/entries/3',
        entryAuthor: { uri: ann.uri!, handle: ann.handle },
        localEntry: false,
      }),
    );
    expect(addressing).toMatchObject({ to: [ann.uri], cc: [PUBLIC_COLLECTION, bob.uri] });
    expect(addressing.mentions.map((m) => m.href)).toEqual([ann.uri, bob.uri]);
  });
  it('OWNER_FOLLOWERS on a remote vault’s entry: its author in to, their followers in cc', () => {
    const addressing = commentAddressing(
      thread('OWNER_FOLLOWERS', {
        entryNote: 'https://social.example/users/ann/entries/3',
        entryAuthor: { uri: ann.uri!, handle: ann.handle },
        localEntry: false,
      }),
    );
    expect(addressing.to).toEqual([ann.uri]);
    expect(addressing.cc).toContain(`${ann.uri}/followers`);
    expect(addressing.cc).not.toContain(PUBLIC_COLLECTION);
  });
});

describe('the HTML of a comment with mentions', () => {
  it('links a written handle and puts an unwritten mention first', () => {
    const html = commentHtml('Ask @ann@social.example & me', [mention(bob), mention(ann)]);
    expect(html).toBe(
      `<p><a class="u-url mention" href="${bob.uri}">@bob</a> Ask ` +
        `<a class="u-url mention" href="${ann.uri}">@ann</a> &amp; me</p>`,
    );
  });

  it('links a local user written as @name, not inside an address or a URL', () => {
    const dave = {
      href: `${ORIGIN}/users/dave`,
      name: '@dave@vault.example',
      short: '@dave',
      local: true,
    };
    expect(commentHtml('mail x@dave.example or https://a.example/@dave, @dave!', [dave])).toBe(
      '<p>mail x@dave.example or <a href="https://a.example/@dave" rel="nofollow noopener noreferrer" target="_blank">https://a.example/@dave</a>, ' +
        `<a class="u-url mention" href="${ORIGIN}/users/dave">@dave</a>!</p>`,
    );
  });
});
