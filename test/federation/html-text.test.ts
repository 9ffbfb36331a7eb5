import { describe, expect, it } from 'vitest';
import { htmlToText, textToLinkedHtml } from '../../federation/html.ts';

/** How a reply is read: its links as their URLs. */
const URLS = { links: 'url' } as const;

/** Received HTML becomes text (never HTML to render); sent comments become escaped HTML. */
describe('htmlToText', () => {
  it('keeps paragraphs, line breaks, mentions as text and links as their URLs', () => {
    expect(
      htmlToText(
        '<p><span class="h-card"><a href="https://m.example/@alice" class="u-url mention">@<span>alice</span></a></span> Hi!<br>Look: ' +
          '<a href="https://x.example/a?b=1&amp;c=2" rel="nofollow"><span class="invisible">https://</span>x.example/a?b=1&amp;c…</a></p>' +
          '<p><a href="https://m.example/tags/beer" class="mention hashtag" rel="tag">#<span>beer</span></a></p>',
        URLS,
      ),
    ).toBe('@alice Hi!\nLook: https://x.example/a?b=1&c=2\n\n#beer');
  });

  it('drops every tag and keeps what was escaped as text, with no way to smuggle markup', () => {
    expect(
      htmlToText(
        '<script>alert(1)</script><p>&lt;img src=x onerror=alert(1)&gt; &amp;amp; &#x1F37A; &#39;</p>',
        URLS,
      ),
    ).toBe("<img src=x onerror=alert(1)> &amp; 🍺 '"); // a script goes with its content
    // A link that is not http(s) keeps its text, never its target.
    expect(htmlToText('<a href="javascript:alert(1)">click</a>', URLS)).toBe('click');
    expect(htmlToText("<a href='https://x.example/'>x</a>", URLS)).toBe('https://x.example/');
    // Without it (a bio, a name), a link keeps its words.
    expect(htmlToText("<a href='https://x.example/'>x</a>")).toBe('x');
  });
});

describe('textToLinkedHtml', () => {
  it('escapes the text and makes http(s) URLs links, without trailing punctuation', () => {
    expect(textToLinkedHtml('<b>Hi</b> & see https://x.example/y?a=1&b=2.\nok')).toBe(
      '<p>&lt;b&gt;Hi&lt;/b&gt; &amp; see <a href="https://x.example/y?a=1&amp;b=2" rel="nofollow noopener noreferrer" target="_blank">https://x.example/y?a=1&amp;b=2</a>.<br>ok</p>',
    );
    expect(htmlToText(textToLinkedHtml('Smoky! https://x.example/y')!, URLS)).toBe(
      'Smoky! https://x.example/y',
    );
  });
});
