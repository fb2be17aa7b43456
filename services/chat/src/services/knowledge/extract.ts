import { Parser } from 'htmlparser2';
import { GPT_MESSAGES, type KnowledgeFormat } from '@earshot/contracts';

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

/** A failure the file list shows as it is (the reason is for people: no stack, no internals). */
export class ExtractionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionFailure';
  }
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
    const match = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match) {
      flush();
      heading = match[1]!.slice(0, 300);
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

async function pdfBlocks(data: Buffer, onPage: (done: number, total: number) => Promise<void>): Promise<Extracted> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data));
  } catch (error) {
    if ((error as { name?: string }).name === 'PasswordException') throw new ExtractionFailure(GPT_MESSAGES.encrypted);
    throw new ExtractionFailure(GPT_MESSAGES.unreadable);
  }
  try {
    const blocks: TextBlock[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        text += item.hasEOL ? '\n' : '';
      }
      page.cleanup();
      const clean = text
        .replace(/[ \t]+/g, ' ')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      if (clean) blocks.push({ text: clean, page: n, heading: null });
      await onPage(n, pdf.numPages);
    }
    if (blocks.length === 0) throw new ExtractionFailure(GPT_MESSAGES.noTextLayer);
    return { pages: pdf.numPages, blocks };
  } finally {
    await pdf.destroy();
  }
}

async function docxBlocks(data: Buffer): Promise<TextBlock[]> {
  const mammoth = await import('mammoth');
  try {
    const { value } = await mammoth.convertToHtml({ buffer: data });
    return htmlBlocks(value);
  } catch {
    throw new ExtractionFailure(GPT_MESSAGES.unreadable);
  }
}

/**
 * The text of a knowledge file with its positions: PDF by page (unpdf, pdf.js; no text on any
 * page is 'This PDF has no text layer', a password is said so), DOCX through its HTML (mammoth)
 * to keep headings, Markdown by headings, HTML stripped to text, plain text and CSV as they are.
 * `onProgress` hears of each PDF page.
 */
export async function extractText(
  format: KnowledgeFormat,
  data: Buffer,
  onProgress: (done: number, total: number) => Promise<void>,
): Promise<Extracted> {
  let blocks: TextBlock[];
  if (format === 'pdf') return pdfBlocks(data, onProgress);
  if (format === 'docx') blocks = await docxBlocks(data);
  else {
    const text = data.toString('utf8').replace(/^\uFEFF/, '');
    blocks = format === 'html' ? htmlBlocks(text) : format === 'markdown' ? markdownBlocks(text) : plainBlocks(text);
  }
  if (blocks.length === 0) throw new ExtractionFailure(GPT_MESSAGES.noText);
  return { pages: null, blocks };
}
