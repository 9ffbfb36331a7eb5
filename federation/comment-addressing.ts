import type { CommentForNote, NoteParty } from '../src/conversation/note-reads.ts';
import { escapeHtml, textToLinkedHtml } from './html.ts';

// No Fedify here: the addressing of a comment's Note in plain data, shared by its delivery
// (conversation-handoff.ts) and its GET (comment-notes.ts), so both show the same Note.

/**
 * A person a Note mentions: `href` their actor id, `name` '@name@host', `short` '@name';
 * `local` for a user of this vault (whom a comment may name as '@name' alone).
 */
export interface NoteMention {
  href: string;
  name: string;
  short: string;
  local?: boolean;
}

/** Whom a comment's Note answers, is addressed to and mentions. */
export interface CommentAddressing {
  inReplyTo: string;
  to: string[];
  cc: string[];
  mentions: NoteMention[];
  /**
   * The mentions its HTML links: all but the entry's author's (a Mention tag alone, as a
   * comment on an entry does not start with its author's name), unless the comment names them.
   */
  links: NoteMention[];
}

/** The thread a comment is in, as its addressing is worked out from it. */
export interface CommentThread {
  origin: string;
  /** The entry's Note id. */
  entryNote: string;
  /** The entry's author: a local owner (`localEntry`) or a remote vault's actor. */
  entryAuthor: { uri: string; handle: string | null };
  localEntry: boolean;
  comment: Pick<CommentForNote, 'id' | 'audience' | 'author' | 'parent'>;
  addressees: (NoteParty & { mentioned: boolean })[];
}

/** The Public collection: on a remote vault's entry, "everyone who may see it" there. */
export const PUBLIC_COLLECTION = 'https://www.w3.org/ns/activitystreams#Public';

/** The id of a local user's actor (the users' path of federation/paths.ts). */
export function localActorUri(origin: string, username: string): string {
  return new URL(`/users/${encodeURIComponent(username)}`, origin).href;
}

/** The id of a local user's comment's Note: it follows from the comment's id. */
export function commentNoteUri(origin: string, username: string, commentId: number): URL {
  return new URL(`/users/${encodeURIComponent(username)}/comments/${commentId}`, origin);
}

/** A party's actor id, or null for a remote account whose id is unknown. */
export function partyUri(origin: string, party: NoteParty): string | null {
  return party.username !== null ? localActorUri(origin, party.username) : party.uri;
}

function mentionOf(origin: string, party: NoteParty): NoteMention | undefined {
  const href = partyUri(origin, party);
  if (!href) return undefined;
  const handle =
    party.username !== null
      ? `${party.username}@${new URL(origin).host}`
      : party.handle?.replace(/^@/, '');
  if (!handle) return { href, name: href, short: href };
  const local = party.username !== null;
  return { href, name: `@${handle}`, short: `@${handle.split('@')[0]}`, local };
}

/** The Note id of the comment a comment answers: a local comment's, or a remote reply's own. */
export function parentNoteUri(
  origin: string,
  parent: NonNullable<CommentForNote['parent']>,
): string | undefined {
  if (parent.uri) return parent.uri;
  return parent.author.username === null
    ? undefined
    : commentNoteUri(origin, parent.author.username, parent.id).href;
}

/**
 * How a comment's Note is addressed (docs/federation.md, "The audience of a comment's Note"):
 * - `inReplyTo`: the Note of the comment it answers, else the entry's Note;
 * - PUBLIC and OWNER_FOLLOWERS: a local entry's owner's followers (`to`) and the owner (`cc`),
 *   as the entry's Note is addressed (never Public: an entry is never public); a remote vault's
 *   entry's author (`to`), with Public (PUBLIC) or the author's followers (OWNER_FOLLOWERS) in
 *   `cc`, which that vault reads as the comment's audience (never wider than the entry there);
 * - AUTHOR_FOLLOWERS: the comment's author's followers (`to`), the entry's author (`cc`);
 * - DIRECT: the people it is addressed to, and nobody else (no collection at all);
 * - every addressee and every mentioned person in `cc` (DIRECT: `to`), and a Mention of the
 *   entry's author (but in a DIRECT one), of the author of the comment it answers and of each
 *   person it names, so that their servers tell them.
 */
export function commentAddressing(thread: CommentThread): CommentAddressing {
  const { origin, comment } = thread;
  const self = partyUri(origin, comment.author);
  const direct = comment.audience === 'DIRECT';
  const mentions = new Map<string, NoteMention>();
  const mention = (m: NoteMention | undefined) => {
    if (m && m.href !== self && !mentions.has(m.href)) mentions.set(m.href, m);
  };
  if (!direct) {
    const author = thread.entryAuthor;
    const handle = author.handle?.replace(/^@/, '');
    mention({
      href: author.uri,
      name: handle ? `@${handle}` : author.uri,
      short: handle ? `@${handle.split('@')[0]}` : author.uri,
    });
  }
  const linked = new Set<string>();
  const link = (m: NoteMention | undefined) => {
    mention(m);
    if (m && mentions.has(m.href)) linked.add(m.href);
  };
  if (comment.parent) link(mentionOf(origin, comment.parent.author));
  for (const a of thread.addressees) if (a.mentioned) link(mentionOf(origin, a));

  const named = new Set<string>();
  for (const a of thread.addressees) {
    const uri = partyUri(origin, a);
    if (uri && uri !== self) named.add(uri);
  }
  for (const href of mentions.keys()) named.add(href);

  const parent = comment.parent ? parentNoteUri(origin, comment.parent) : undefined;
  const inReplyTo = parent ?? thread.entryNote;
  const mentionList = [...mentions.values()];
  const links = mentionList.filter((m) => linked.has(m.href));
  if (direct) return { inReplyTo, to: [...named], cc: [], mentions: mentionList, links };
  const to =
    comment.audience === 'AUTHOR_FOLLOWERS' && self
      ? `${self}/followers`
      : thread.localEntry
        ? `${thread.entryAuthor.uri}/followers`
        : thread.entryAuthor.uri;
  const cc = new Set(
    comment.audience === 'AUTHOR_FOLLOWERS' || thread.localEntry ? [thread.entryAuthor.uri] : [],
  );
  // On a remote vault's entry, the Note goes to its author's vault alone; its cc tells that vault
  // who reads it there: everyone who may see the entry (Public, kept within the entry's own
  // audience there), or its author's followers. Without them it would be a private reply.
  if (!thread.localEntry && comment.audience === 'PUBLIC') cc.add(PUBLIC_COLLECTION);
  if (!thread.localEntry && comment.audience === 'OWNER_FOLLOWERS') {
    cc.add(`${thread.entryAuthor.uri}/followers`);
  }
  for (const uri of named) if (uri !== to) cc.add(uri);
  return { inReplyTo, to: [to], cc: [...cc], mentions: mentionList, links };
}

/** Escapes a text for use in a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A comment's text as the Note's HTML (textToLinkedHtml) with each mention a link, as Mastodon
 * writes them: `@name@host` (or, for a local user, `@name`) where the text has it becomes
 * `<a class="u-url mention" href="{actor}">@name</a>`; a mention the text does not write (the
 * author of the comment answered) is put first, as Mastodon starts a reply.
 */
export function commentHtml(content: string, mentions: readonly NoteMention[]): string {
  let html = textToLinkedHtml(content) ?? '';
  const missing: string[] = [];
  for (const m of mentions) {
    const link = `<a class="u-url mention" href="${escapeHtml(m.href)}">${escapeHtml(m.short)}</a>`;
    const ways = [m.name];
    if (m.local) ways.push(m.short);
    let found = false;
    for (const way of ways) {
      if (!way.startsWith('@')) continue;
      const pattern = new RegExp(`(?<![\\w@/.])${literal(escapeHtml(way))}(?![\\w@])`, 'i');
      if (pattern.test(html)) {
        html = html.replace(pattern, link);
        found = true;
        break;
      }
    }
    if (!found) missing.push(link);
  }
  if (missing.length === 0) return html;
  const lead = missing.join(' ');
  return html.startsWith('<p>') ? `<p>${lead} ${html.slice(3)}` : `<p>${lead}</p>${html}`;
}
