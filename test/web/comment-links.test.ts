import { describe, expect, it } from 'vitest';
import { commentParts, mentionHref } from '../../web/src/conversation/links.ts';
import { handleOfSegment, handlePath } from '../../web/src/people/handle-path.ts';

const text = (text: string) => ({ kind: 'text', text });
const link = (text: string, href = text) => ({ kind: 'link', text, href });
const mention = (text: string, href: string) => ({ kind: 'mention', text, href });

/** The mentions of a comment as the server lists them. */
const bob = { text: '@bob', username: 'bob', handle: null };
const ann = { text: '@ann@example.social', username: null, handle: '@ann@example.social' };

describe('the links of a comment', () => {
  it('leaves text without an address as one text part', () => {
    expect(commentParts('A lovely dram.')).toEqual([text('A lovely dram.')]);
    expect(commentParts('')).toEqual([]);
  });

  it('makes http and https addresses links, with the text around them kept', () => {
    expect(
      commentParts('See https://oban.example/whisky and http://shop.example/a?b=1#c now'),
    ).toEqual([
      text('See '),
      link('https://oban.example/whisky'),
      text(' and '),
      link('http://shop.example/a?b=1#c'),
      text(' now'),
    ]);
  });

  it('keeps markup as text: nothing but an address becomes a link', () => {
    expect(commentParts('<b>x</b> <a href="https://evil.example">y</a>')).toEqual([
      text('<b>x</b> <a href="'),
      link('https://evil.example', 'https://evil.example/'),
      text('">y</a>'),
    ]);
  });

  it('never links another scheme', () => {
    for (const comment of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'ftp://files.example/a',
      'mailto:a@b.example',
    ]) {
      expect(commentParts(comment)).toEqual([text(comment)]);
    }
  });

  it('does not link an address that starts inside a word, or one without a host', () => {
    expect(commentParts('xhttps://a.example')).toEqual([text('xhttps://a.example')]);
    expect(commentParts('https:// nothing')).toEqual([text('https:// nothing')]);
    expect(commentParts('https://.')).toEqual([text('https://.')]);
  });

  it('leaves the punctuation that ends a sentence out of the link', () => {
    expect(commentParts('Go to https://a.example/x. Then https://b.example!')).toEqual([
      text('Go to '),
      link('https://a.example/x'),
      text('. Then '),
      link('https://b.example', 'https://b.example/'),
      text('!'),
    ]);
  });

  it('keeps a bracket the address opened, and drops one the sentence opened', () => {
    expect(commentParts('(see https://en.example/wiki/Oban_(town))')).toEqual([
      text('(see '),
      link('https://en.example/wiki/Oban_(town)'),
      text(')'),
    ]);
    expect(commentParts('(https://a.example/b)')).toEqual([
      text('('),
      link('https://a.example/b'),
      text(')'),
    ]);
  });

  it('gives the text back unchanged when the parts are joined', () => {
    const comment = 'HTTPS://A.example/Path, "https://b.example/q?x=<1>" and\nhttps://c.example';
    const parts = commentParts(comment);
    expect(parts.map((part) => part.text).join('')).toBe(comment);
    expect(parts.filter((part) => part.kind === 'link').map((part) => part.href)).toEqual([
      'https://a.example/Path',
      'https://b.example/q?x=',
      'https://c.example/',
    ]);
  });
});

describe('the mentions of a comment', () => {
  it('link a user of this vault to their profile, a fediverse account to its page here', () => {
    expect(commentParts('Thanks @bob and @ann@example.social!', [bob, ann])).toEqual([
      text('Thanks '),
      mention('@bob', '/users/bob'),
      text(' and '),
      mention('@ann@example.social', '/users/@ann@example.social'),
      text('!'),
    ]);
    expect(mentionHref(bob)).toBe('/users/bob');
    expect(mentionHref({ text: '@x', username: null, handle: null })).toBeNull();
  });

  it('link only the names the server says were mentioned, each where the whole name stands', () => {
    expect(commentParts('@bob, @bobby, me@bob, x.@bob and @bob@example.social', [bob])).toEqual([
      mention('@bob', '/users/bob'),
      text(', @bobby, me@bob, x.@bob and @bob@example.social'),
    ]);
    // A name ends where its characters end, in any case, as the server reads it; a host goes on
    // past a dot that a label follows, or a port.
    expect(commentParts('@Bob.smith @bob-x', [bob])).toEqual([
      mention('@Bob', '/users/bob'),
      text('.smith '),
      mention('@bob', '/users/bob'),
      text('-x'),
    ]);
    const hosts = '@ann@example.social.uk, @ann@example.social:8080, @ann@example.social.';
    expect(commentParts(hosts, [ann])).toEqual([
      text('@ann@example.social.uk, @ann@example.social:8080, '),
      mention('@ann@example.social', '/users/@ann@example.social'),
      text('.'),
    ]);
    expect(commentParts('Ask @bob. Or @carol.', [bob])).toEqual([
      text('Ask '),
      mention('@bob', '/users/bob'),
      text('. Or @carol.'),
    ]);
    expect(commentParts('Hi @bob', [])).toEqual([text('Hi @bob')]);
  });

  it('leave a mention inside an address to the address', () => {
    expect(commentParts('See https://example.social/@bob and @bob', [bob])).toEqual([
      text('See '),
      link('https://example.social/@bob'),
      text(' and '),
      mention('@bob', '/users/bob'),
    ]);
  });

  it('give the text back unchanged when the parts are joined', () => {
    const comment = '@bob: @ann@example.social said https://a.example/x @bob\n@ann@example.social';
    expect(
      commentParts(comment, [bob, ann])
        .map((part) => part.text)
        .join(''),
    ).toBe(comment);
  });
});

describe('the page of a fediverse account', () => {
  it('is /users/@name@host, and only a handle names one', () => {
    expect(handlePath('@ann@example.social')).toBe('/users/@ann@example.social');
    expect(handlePath('ann@example.social')).toBe('/users/@ann@example.social');
    expect(handlePath('@a b@example.social')).toBeNull();
    expect(handlePath('@ann')).toBeNull();
    expect(handlePath('@ann@x/y')).toBeNull();
    expect(handleOfSegment('@ann@example.social')).toBe('@ann@example.social');
    expect(handleOfSegment('%40ann%40example.social')).toBe('@ann@example.social');
    expect(handleOfSegment('ann')).toBeNull();
    expect(handleOfSegment('ann@example.social')).toBeNull();
    expect(handleOfSegment('%E0%A4%A')).toBeNull();
  });
});
