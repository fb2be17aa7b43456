// A search hit's passage. The server sends HTML with the matches in <mark> and everything else
// escaped; this does not trust that: the text is split on the two markers, the rest decoded from
// the few entities an escaper writes and rendered as React text (so any tag that slipped through,
// an <img onerror> say, shows as its letters). No HTML string ever reaches the DOM.
import type { ReactElement } from 'react';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Text with `&lt;`, `&#39;`, `&#x27;`… turned back into characters; unknown entities stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/** The passage as plain-text parts, marked or not (an unclosed <mark> runs to the end). */
export function snippetParts(html: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of html.split(/(<mark>|<\/mark>)/i)) {
    const lower = piece.toLowerCase();
    if (lower === '<mark>') marked = true;
    else if (lower === '</mark>') marked = false;
    else if (piece) {
      const text = decodeEntities(piece);
      const last = parts.at(-1);
      if (last && last.marked === marked) last.text += text;
      else parts.push({ text, marked });
    }
  }
  return parts;
}

export function Snippet({ html }: { html: string }): ReactElement {
  return (
    <span data-testid="hit-snippet">
      {snippetParts(html).map((part, index) =>
        part.marked ? (
          <mark
            key={index}
            className="rounded bg-yellow-200 px-0.5 text-gray-900 dark:bg-yellow-500/40 dark:text-yellow-50"
          >
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}
