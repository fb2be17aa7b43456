import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { decodeEntities, Snippet, snippetParts } from './snippet';

describe('search snippets', () => {
  it('marks the matches and shows escaped text as text', () => {
    render(
      <Snippet html="Tom &amp; Jerry said &lt;b&gt;hello&lt;/b&gt; about the <mark>invoice</mark> &#39;twice&#x27;" />,
    );
    const snippet = screen.getByTestId('hit-snippet');
    expect(snippet.textContent).toBe("Tom & Jerry said <b>hello</b> about the invoice 'twice'");
    expect(snippet.querySelectorAll('mark')).toHaveLength(1);
    expect(snippet.querySelector('mark')?.textContent).toBe('invoice');
    expect(snippet.querySelector('b')).toBeNull();
  });

  it('never injects HTML that slipped through unescaped: an <img onerror> outside <mark> is text', () => {
    const html =
      'before <img src=x onerror="window.hacked=1"> <mark>call</mark> <script>window.hacked=2</script><mark><b>bold</b></mark>';
    const { container } = render(<Snippet html={html} />);
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toBe(
      'before <img src=x onerror="window.hacked=1"> call <script>window.hacked=2</script><b>bold</b>',
    );
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['call', '<b>bold</b>']);
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });

  it('joins pieces, tolerates an unclosed mark, and leaves unknown or impossible entities as written', () => {
    expect(snippetParts('a<MARK>b</mark><mark>c')).toEqual([
      { text: 'a', marked: false },
      { text: 'bc', marked: true },
    ]);
    expect(decodeEntities('&bogus; &#0; &#xD800; &#65;')).toBe('&bogus; &#0; &#xD800; A');
  });
});
