// Replies are markdown written by a language model (or quoting transcripts people uploaded), so
// they are untrusted: rendered with marked, then sanitised with DOMPurify. No script, no event
// handler, no style, no form; links only to http(s) or to paths of this site. Images load only
// from this site: an image elsewhere would be fetched the moment the reply shows, so a prompt
// planted in a transcript could leak the conversation in its URL without anyone clicking.
import DOMPurify, { type Config } from 'dompurify';
import { marked } from 'marked';

const purify = DOMPurify(window);

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option'],
  FORBID_ATTR: ['style', 'target'],
  ALLOW_DATA_ATTR: false,
};

/** A path of this site ('/transcripts/…', '?…', '#…'), not a protocol-relative '//host' URL. */
export function isInAppHref(href: string): boolean {
  return /^(\/(?!\/)|\?|#)/.test(href);
}

/**
 * A file the API serves (a custom GPT's knowledge file cited at a page: '/api/custom-gpt/…#page=2'),
 * not a screen of the app: it opens in a new tab instead of inside the app's router.
 */
export function isApiHref(href: string): boolean {
  return /^\/api\//.test(href);
}

/** An absolute http(s) URL (parsed, so 'java\tscript:' and friends do not pass). */
function isWebUrl(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

purify.addHook('afterSanitizeAttributes', (node) => {
  for (const attribute of ['href', 'src'] as const) {
    const value = node.getAttribute(attribute);
    if (value === null) continue;
    const trimmed = value.trim();
    if (!isInAppHref(trimmed) && !isWebUrl(trimmed)) node.removeAttribute(attribute);
  }
  if (node.tagName === 'A') {
    const href = node.getAttribute('href');
    if (
      href &&
      (isApiHref(href.trim()) || (isWebUrl(href.trim()) && new URL(href.trim()).origin !== window.location.origin))
    ) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  }
});

/** An image source this site serves itself: a path of the site or an absolute URL of its origin. */
export function isOwnImageSrc(src: string): boolean {
  if (isInAppHref(src)) return true;
  return isWebUrl(src) && new URL(src).origin === window.location.origin;
}

/** An image from elsewhere becomes a link the person may choose to open, so nothing is fetched on render. */
function replaceOutsideImages(root: HTMLElement): void {
  for (const image of [...root.querySelectorAll('img')]) {
    const src = image.getAttribute('src')?.trim() ?? '';
    if (src && isOwnImageSrc(src)) continue;
    const alt = image.getAttribute('alt')?.trim() ?? '';
    if (!src) {
      image.replaceWith(document.createTextNode(alt));
      continue;
    }
    const link = document.createElement('a');
    link.setAttribute('href', src);
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer nofollow');
    link.textContent = alt || new URL(src).host;
    image.replaceWith(link);
  }
}

/** Markdown → safe HTML. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  // RETURN_DOM hands back the sanitised <body>; the library's types only promise a Node.
  const root = purify.sanitize(html, { ...CONFIG, RETURN_DOM: true }) as HTMLElement;
  replaceOutsideImages(root);
  return root.innerHTML;
}
