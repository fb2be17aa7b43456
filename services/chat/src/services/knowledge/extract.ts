import { Parser } from 'htmlparser2';
import type { KnowledgeFormat } from '@earshot/contracts';
import { ExtractionFailure, type ExtractionLimits } from './limits';
import { checkZip } from './zip-directory';

// Runs in the extractor thread (extract-worker.ts), never on the event loop that serves requests:
// everything here reads untrusted bytes.

/** A run of text with where it sits: its page (PDF, from 1) and the heading it falls under. */
export interface TextBlock {
  text: string;
  page: number | null;
  heading: string | null;
}

export interface Extracted {
  /** Pages of a PDF; null for formats without pages. */
  pages: number | null;
  blocks: TextBlock[];
}

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'li',
  'tr',
  'br',
  'section',
  'article',
  'blockquote',
  'pre',
  'td',
  'th',
  'table',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'footer',
  'main',
]);
const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
const HEADING = /^h[1-6]$/;

/**
 * HTML to text blocks with the heading each falls under: scripts, styles and markup dropped,
 * entities decoded by the parser (htmlparser2, the parser sanitize-html is built on).
 */
export function htmlBlocks(html: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let heading: string | null = null;
  let buffer = '';
  let inHeading = false;
  let skipping = 0;
  const flush = () => {
    const text = buffer.replace(/\s+/g, ' ').trim();
    buffer = '';
    if (!text) return;
    if (inHeading) heading = text.slice(0, 300);
    blocks.push({ text, page: null, heading });
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED_TAGS.has(name)) skipping++;
        if (BLOCK_TAGS.has(name)) flush();
        if (HEADING.test(name)) inHeading = true;
      },
      ontext(text) {
        if (skipping === 0) buffer += text;
      },
      onclosetag(name) {
        if (SKIPPED_TAGS.has(name)) skipping = Math.max(0, skipping - 1);
        if (BLOCK_TAGS.has(name)) {
          flush();
          if (HEADING.test(name)) inHeading = false;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}

/**
 * An ATX heading's text (`## Pricing ##` → 'Pricing'), or null for any other line. Read in one
 * pass: the obvious regex (lazy text, then optional closing #s and spaces) backtracks
 * cubically on a long line of spaces and #s, which a knowledge file can be built to be.
 */
export function atxHeading(line: string): string | null {
  let i = 0;
  while (i < 3 && line[i] === ' ') i += 1;
  let level = 0;
  while (line[i + level] === '#') level += 1;
  if (level < 1 || level > 6) return null;
  const rest = line.slice(i + level);
  if (!/^[ \t]/.test(rest)) return null;
  let text = rest.trim();
  // A closing sequence of #s counts only after a space (or when it is all there is).
  const closing = /(?:^|[ \t])#+$/.exec(text);
  if (closing) text = text.slice(0, closing.index).trimEnd();
  return text || null;
}

/** Markdown kept as its text, each line under the last `#` heading above it. */
export function markdownBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let heading: string | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    const joined = paragraph.join('\n').trim();
    paragraph = [];
    if (joined) blocks.push({ text: joined, page: null, heading });
  };
  for (const line of text.split(/\r?\n/)) {
    const found = atxHeading(line);
    if (found) {
      flush();
      heading = found.slice(0, 300);
      blocks.push({ text: heading, page: null, heading });
    } else if (!line.trim()) {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** Plain text and CSV: paragraphs (CSV rows are lines, kept in order). */
export function plainBlocks(text: string): TextBlock[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => ({ text: p, page: null, heading: null }));
}

/** Counts extracted text against the cap as it comes, so reading stops as soon as it is passed. */
class TextBudget {
  private used = 0;
  constructor(private readonly max: number) {}

  take(text: string): void {
    this.used += Buffer.byteLength(text);
    if (this.used > this.max) throw new ExtractionFailure({ kind: 'text' });
  }
}

const unreadable = () => new ExtractionFailure({ kind: 'unreadable' });

/**
 * PDF by page: the page count (from the page tree, before any page is read) against the limit,
 * then each page's text streamed and counted, so a page that draws the same text a million times
 * (nested forms) stops at the cap instead of filling memory.
 */
async function pdfBlocks(
  data: Uint8Array,
  limits: ExtractionLimits,
  onPage: (done: number, total: number) => void,
): Promise<Extracted> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data);
  } catch (error) {
    if ((error as { name?: string }).name === 'PasswordException') throw new ExtractionFailure({ kind: 'encrypted' });
    throw unreadable();
  }
  // No cleanup on a refusal: the thread ends with it (pdf.js, cancelled mid-page, throws from its
  // own callbacks after the refusal instead of before it).
  if (pdf.numPages > limits.maxPages) throw new ExtractionFailure({ kind: 'pages', pages: pdf.numPages });
  const budget = new TextBudget(limits.maxTextBytes);
  const blocks: TextBlock[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    let text = '';
    const reader = (page.streamTextContent() as ReadableStream<{ items: unknown[] }>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const item of value.items as { str?: string; hasEOL?: boolean }[]) {
        if (typeof item.str !== 'string') continue;
        budget.take(item.str);
        text += item.str;
        text += item.hasEOL ? '\n' : '';
      }
    }
    page.cleanup();
    const clean = text
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (clean) blocks.push({ text: clean, page: n, heading: null });
    onPage(n, pdf.numPages);
  }
  if (blocks.length === 0) throw new ExtractionFailure({ kind: 'noTextLayer' });
  await pdf.destroy();
  return { pages: pdf.numPages, blocks };
}

/**
 * DOCX through mammoth's HTML (headings kept), once its zip has passed `checkZip`. Images are
 * never read: a reply quotes text only.
 */
async function docxBlocks(data: Buffer, limits: ExtractionLimits): Promise<TextBlock[]> {
  checkZip(data, limits);
  const mammoth = await import('mammoth');
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: data },
      { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
    ));
  } catch {
    throw unreadable();
  }
  return htmlBlocks(html);
}

/**
 * The text of a knowledge file with its positions, within `limits`: PDF by page (unpdf, pdf.js; no
 * text on any page is 'This PDF has no text layer', a password is said so), DOCX through its HTML
 * (mammoth) to keep headings, Markdown by headings, HTML stripped to text, plain text and CSV as
 * they are. `onProgress` hears of each PDF page.
 */
export async function extractText(
  format: KnowledgeFormat,
  data: Buffer,
  limits: ExtractionLimits,
  onProgress: (done: number, total: number) => void,
): Promise<Extracted> {
  let blocks: TextBlock[];
  if (format === 'pdf')
    return pdfBlocks(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), limits, onProgress);
  if (format === 'docx') blocks = await docxBlocks(data, limits);
  else {
    // Text is about as long as the file: one bigger than the cap is refused unread.
    if (format !== 'html' && data.length > limits.maxTextBytes) throw new ExtractionFailure({ kind: 'text' });
    const text = data.toString('utf8').replace(/^\uFEFF/, '');
    blocks = format === 'html' ? htmlBlocks(text) : format === 'markdown' ? markdownBlocks(text) : plainBlocks(text);
  }
  const budget = new TextBudget(limits.maxTextBytes);
  for (const block of blocks) budget.take(block.text);
  if (blocks.length === 0) throw new ExtractionFailure({ kind: 'noText' });
  return { pages: null, blocks };
}
