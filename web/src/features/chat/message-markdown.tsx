// Loaded lazily by the chat page: marked and DOMPurify stay out of the signed-in shell's bundle.
import { useMemo, type MouseEvent, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { isApiHref, isInAppHref, renderMarkdown } from './markdown';

export const markdownClass =
  'break-words text-sm leading-relaxed [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline dark:[&_a]:text-brand-300 [&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-gray-300 [&_blockquote]:pl-3 [&_blockquote]:text-gray-700 dark:[&_blockquote]:border-gray-600 dark:[&_blockquote]:text-gray-300 [&_code]:rounded [&_code]:bg-gray-100 [&_code]:px-1 [&_code]:text-[0.85em] dark:[&_code]:bg-gray-800 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mb-2 [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:my-0.5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-5 [&_p:not(:last-child)]:mb-2 [&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-gray-100 [&_pre]:p-3 dark:[&_pre]:bg-gray-800 [&_table]:my-2 [&_td]:border [&_td]:border-gray-300 [&_td]:px-2 [&_th]:border [&_th]:border-gray-300 [&_th]:px-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5';

export default function MessageMarkdown({ text }: { text: string }): ReactElement {
  const navigate = useNavigate();
  const html = useMemo(() => renderMarkdown(text), [text]);

  // Links to this site's pages (a transcript at a moment) open inside the app, not by reloading it.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const anchor = (event.target as Element).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href || isApiHref(href)) return;
    const url = new URL(anchor.href, window.location.href);
    if (!isInAppHref(href) && url.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(`${url.pathname}${url.search}${url.hash}`);
  };

  // The HTML is sanitised by renderMarkdown (markdown.ts); the click handler only routes links.
  return (
    <div
      className={markdownClass}
      data-testid="message-markdown"
      onClick={onClick}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
