import type sanitizeHtml from 'sanitize-html';
import {
  EMAIL_TEMPLATE_VARIABLES,
  TEMPLATE_VARIABLE,
  type EmailLanguage,
  type EmailTemplateType,
} from '@earshot/contracts';

export type MailVariables = Record<string, string | number>;

export interface Branding {
  companyName: string;
  /** An absolute http(s) URL, or null. */
  logoUrl: string | null;
  primary: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** The variables a template names that its type does not offer, in order of appearance, once each. */
export function unknownVariables(type: EmailTemplateType, ...parts: string[]): string[] {
  const allowed = new Set(EMAIL_TEMPLATE_VARIABLES[type]);
  const found = parts.flatMap((part) => [...part.matchAll(TEMPLATE_VARIABLE)].map((match) => match[1]!));
  return [...new Set(found.filter((name) => !allowed.has(name)))];
}

/**
 * Markup that has no business in an e-mail. Saving refuses it outright (so what the administrator
 * sees is what is sent); sending sanitises again in case a stored template predates a rule.
 */
const FORBIDDEN = [
  { pattern: /<\s*script\b/i, what: '<script>' },
  { pattern: /<\s*(iframe|object|embed|form|input|button|link|meta|base)\b/i, what: 'embedded content or forms' },
  { pattern: /\son[a-z]+\s*=/i, what: 'event handler attributes (on…=)' },
  {
    pattern: /(?:javascript|vbscript|data)\s*:(?!image\/(?:png|jpeg|gif|webp);base64,)/i,
    what: 'javascript:, vbscript: or data: links',
  },
];

export function forbiddenMarkup(html: string): string | null {
  return FORBIDDEN.find(({ pattern }) => pattern.test(html))?.what ?? null;
}

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function fill(template: string, variables: MailVariables, encode: (value: string) => string): string {
  // Unknown names cannot be saved; one left in an old template renders as nothing, never as code.
  return template.replace(TEMPLATE_VARIABLE, (_match, name: string) => encode(String(variables[name] ?? '')));
}

const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'a',
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'span',
    'div',
    'h1',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'blockquote',
    'hr',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'td',
    'th',
    'small',
    'code',
    'pre',
  ],
  allowedAttributes: {
    '*': ['style', 'class', 'align', 'title', 'dir'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan', 'width'],
    th: ['colspan', 'rowspan', 'width'],
    table: ['width', 'cellpadding', 'cellspacing', 'border', 'role'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
};

const BUTTON_STYLE = (primary: string) =>
  `display:inline-block;background:${primary};color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold`;

/** The branded frame every HTML mail is sent in: logo, the company's primary colour, its name. */
function layout(body: string, subject: string, language: EmailLanguage, brand: Branding): string {
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.companyName)}" height="40" style="height:40px;max-width:200px">`
    : `<strong style="font-size:18px">${escapeHtml(brand.companyName)}</strong>`;
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border-top:4px solid ${brand.primary}">
<tr><td style="padding:24px 32px 8px">${logo}</td></tr>
<tr><td style="padding:8px 32px 32px;font-size:15px;line-height:1.5">${body}</td></tr>
</table>
<p style="font-size:12px;color:#6b7280;margin:16px 0 0">${escapeHtml(brand.companyName)}</p>
</td></tr></table></body></html>`;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Fills a template with values (escaped in HTML), sanitises the HTML and frames it in the brand.
 * sanitize-html (with its HTML parser, about a tenth of a second of CPU) is loaded at the first mail.
 */
export async function renderMail(
  template: RenderedMail,
  variables: MailVariables,
  language: EmailLanguage,
  brand: Branding,
): Promise<RenderedMail> {
  const { default: sanitizeHtml } = await import('sanitize-html');
  const primary = HEX.test(brand.primary) ? brand.primary : '#465fff';
  const subject = fill(template.subject, variables, (value) => value)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const body = sanitizeHtml(fill(template.html, variables, escapeHtml), SAFE_HTML)
    // Templates mark their call to action with class="button"; mail clients ignore <style>.
    .replace(
      /<a([^>]*?)\sclass="button"/g,
      (_m, before: string) => `<a${before} class="button" style="${BUTTON_STYLE(primary)}"`,
    );
  return {
    subject,
    html: layout(body, subject, language, { ...brand, primary }),
    text: fill(template.text, variables, (value) => value),
  };
}
