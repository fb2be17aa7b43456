// Replies are markdown written by a language model (or quoting transcripts people uploaded), so
// they are untrusted: rendered with marked, then sanitised with DOMPurify. No script, no event
// handler, no style, no form; links and images only to http(s) or to paths of this site.
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

/** Markdown → safe HTML. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return purify.sanitize(html, CONFIG);
}
