import { extname } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { ERROR_CODES, GPT_MESSAGES, type KnowledgeFormat } from '@earshot/contracts';
import { HttpError } from '@earshot/kit';

export interface RecognisedFile {
  format: KnowledgeFormat;
  mimeType: string;
}

const MIME: Record<KnowledgeFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  markdown: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
};

/** What a name ending claims. */
const BY_EXTENSION: Record<string, KnowledgeFormat> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.csv': 'csv',
  '.html': 'html',
  '.htm': 'html',
};
/** What a client's content type claims (only the binary formats: browsers label text loosely). */
const BY_MIME: Record<string, KnowledgeFormat> = { 'application/pdf': 'pdf', [MIME.docx]: 'docx' };

const TEXT_FORMATS = new Set<KnowledgeFormat>(['txt', 'markdown', 'csv', 'html']);

const refuse = (message: string) => new HttpError(415, message, ERROR_CODES.UNSUPPORTED, [{ field: 'file', message }]);

/** Text is valid UTF-8 without NUL bytes (a binary file is neither). */
function isText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

const looksLikeHtml = (data: Buffer) =>
  /^\s*(?:<!doctype\s+html|<html[\s>])/i.test(
    data
      .subarray(0, 1024)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  );

/**
 * A knowledge file's format from its bytes: PDF and DOCX by their signatures, the text formats as
 * UTF-8 text named by their ending (unnamed text is plain text, or HTML when it opens as HTML).
 * A name or client type that claims a format the content is not (a text file named .pdf) is a 415,
 * as is anything else.
 */
export async function recogniseKnowledgeFile(
  data: Buffer,
  fileName: string,
  clientType: string | undefined,
): Promise<RecognisedFile> {
  const claimed = BY_EXTENSION[extname(fileName).toLowerCase()] ?? null;
  const claimedByType = BY_MIME[(clientType ?? '').split(';')[0]!.trim().toLowerCase()] ?? null;
  const sniffed = (await fileTypeFromBuffer(data))?.ext;
  let format: KnowledgeFormat | null = null;
  if (sniffed === 'pdf' || sniffed === 'docx') format = sniffed;
  else if (!sniffed && isText(data)) {
    if (claimed && TEXT_FORMATS.has(claimed)) format = claimed;
    else if (!claimed) format = looksLikeHtml(data) ? 'html' : 'txt';
  }
  if (
    (claimed && claimed !== format && !(TEXT_FORMATS.has(claimed) && format && TEXT_FORMATS.has(format))) ||
    (claimedByType && claimedByType !== format)
  ) {
    throw refuse(format || claimed ? GPT_MESSAGES.mismatch : GPT_MESSAGES.notSupported);
  }
  if (!format) throw refuse(GPT_MESSAGES.notSupported);
  return { format, mimeType: MIME[format] };
}

/** The Content-Type a stored file is served with: HTML as plain text, so it is never rendered. */
export const servedType = (format: KnowledgeFormat) =>
  format === 'html'
    ? 'text/plain; charset=utf-8'
    : format === 'pdf' || format === 'docx'
      ? MIME[format]
      : `${MIME[format]}; charset=utf-8`;
