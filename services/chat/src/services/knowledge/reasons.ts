import { GPT_MESSAGES } from '@earshot/contracts';
import { MAX_ZIP_ENTRIES, type ExtractionLimits, type Refusal } from './limits';

const number = (n: number) => Math.round(n).toLocaleString('en-US');

/** 52428800 → "50 MB", 1536 → "1.5 KB" (binary units, as the upload limit is written). */
export function formatBytes(bytes: number): string {
  const [size, unit] = bytes >= 1024 * 1024 ? [bytes / 1024 / 1024, 'MB'] : [bytes / 1024, 'KB'];
  return `${size >= 10 ? number(size) : String(Math.round(size * 10) / 10)} ${unit}`;
}

const NOT_AGAIN = 'it will not be tried again';

/** The reason a file's row shows (the file list prints it as it is). */
export function reasonText(refusal: Refusal, limits: ExtractionLimits): string {
  switch (refusal.kind) {
    case 'unreadable':
    case 'encrypted':
    case 'noTextLayer':
    case 'noText':
      return GPT_MESSAGES[refusal.kind];
    case 'expanded':
      return refusal.bytes === null
        ? `The file expands to more than ${formatBytes(limits.maxExpandedBytes)} of text`
        : `The file expands to ${formatBytes(refusal.bytes)} of text; the limit is ${formatBytes(limits.maxExpandedBytes)}`;
    case 'ratio':
      return `The file is compressed ${number(refusal.ratio)} to 1, as no document is; the limit is ${number(limits.maxZipRatio)} to 1`;
    case 'entries':
      return `The file holds ${number(refusal.entries)} parts; the limit is ${number(MAX_ZIP_ENTRIES)}`;
    case 'pages':
      return `The PDF has ${number(refusal.pages)} pages; the limit is ${number(limits.maxPages)}`;
    case 'text':
      return `The file has more than ${formatBytes(limits.maxTextBytes)} of text, the most a file may have`;
    case 'timeout':
      return `Reading the file took longer than ${number(limits.timeoutMs / 1000)} s; ${NOT_AGAIN}`;
    case 'memory':
      return `Reading the file needed more than ${number(limits.memoryMb)} MB of memory; ${NOT_AGAIN}`;
    case 'crashed':
      return `The file stopped the extractor; ${NOT_AGAIN}`;
    case 'abandoned':
      return `The file stopped the extractor (the server stopped while reading it); ${NOT_AGAIN}`;
  }
}
