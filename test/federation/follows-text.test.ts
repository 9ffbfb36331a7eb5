import { describe, expect, it } from 'vitest';
import { parseLookupQuery } from '../../federation/lookup.ts';
import { htmlToText } from '../../federation/html.ts';

describe('a remote actor’s HTML as text', () => {
  it('keeps the words and line breaks of a Mastodon bio and drops every tag', () => {
    const html =
      '<p>Whisky <a href="https://x.example" class="mention">@friend</a> &amp; wine</p>' +
      '<p>Line one<br />line two</p><script>alert(1)</script><img src=x onerror="alert(2)">';
    expect(htmlToText(html)).toBe('Whisky @friend & wine\n\nLine one\nline two');
  });

  it('decodes numeric entities and leaves unknown ones as they are', () => {
    expect(htmlToText('caf&#233; &#x1F943; &bogus; &lt;b&gt;')).toBe('café 🥃 &bogus; <b>');
  });

  it('reads only the start of a huge summary, quickly', () => {
    const started = performance.now();
    const text = htmlToText('<script>'.repeat(200_000) + 'x');
    expect(text).toBe('');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('reads a reply full of unclosed links quickly', () => {
    const started = performance.now();
    expect(htmlToText('<a href="https://x.example/">'.repeat(100_000))).toBe('');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('gives an empty text for an empty or tag-only summary', () => {
    expect(htmlToText('')).toBe('');
    expect(htmlToText('<p></p><br>')).toBe('');
  });
});

describe('what the follow dialog accepts', () => {
  it('reads @name@host, name@host and actor URLs', () => {
    expect(parseLookupQuery(' @Bob@Mastodon.Example ')).toEqual({
      kind: 'handle',
      name: 'Bob',
      host: 'mastodon.example',
    });
    expect(parseLookupQuery('bob@127.0.0.1:8443')).toEqual({
      kind: 'handle',
      name: 'bob',
      host: '127.0.0.1:8443',
    });
    const url = parseLookupQuery('https://mastodon.example/users/bob');
    expect(url).toEqual({ kind: 'url', url: new URL('https://mastodon.example/users/bob') });
  });

  it('refuses other text with the forms it expects (400)', () => {
    for (const query of [
      'bob',
      '@bob',
      'bob@',
      'ftp://x.example/u',
      'https://u:p@x.example/',
      'a b@c',
    ]) {
      expect(() => parseLookupQuery(query), query).toThrow(
        'Enter a handle like @name@example.social, or a profile address.',
      );
    }
  });
});
