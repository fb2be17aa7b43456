import type { ChatConfig } from '../../config';

/** What reading one knowledge file may cost (from the chat service's configuration). */
export interface ExtractionLimits {
  /** Bytes a zip-based file (DOCX) may unpack to, read from its central directory before inflating. */
  maxExpandedBytes: number;
  /** How much smaller than its content a zip entry may be (a bomb's entries are a thousand times smaller). */
  maxZipRatio: number;
  maxPages: number;
  /** Bytes (UTF-8) of extracted text. */
  maxTextBytes: number;
  timeoutMs: number;
  /** The extractor thread's JavaScript heap; resident memory may grow twice this while it runs. */
  memoryMb: number;
}

export const limitsOf = (config: ChatConfig): ExtractionLimits => ({
  maxExpandedBytes: config.KNOWLEDGE_MAX_EXPANDED_BYTES,
  maxZipRatio: config.KNOWLEDGE_MAX_ZIP_RATIO,
  maxPages: config.KNOWLEDGE_MAX_PAGES,
  maxTextBytes: config.KNOWLEDGE_MAX_TEXT_BYTES,
  timeoutMs: config.KNOWLEDGE_EXTRACT_TIMEOUT_MS,
  memoryMb: config.KNOWLEDGE_EXTRACT_MEMORY_MB,
});

/** Zip entries a file may hold: a DOCX has a few dozen; each costs a little before anything is inflated. */
export const MAX_ZIP_ENTRIES = 10_000;

/**
 * Why a file could not be read, as the extractor thread reports it (plain data: it crosses the
 * thread boundary); `reasonText` (reasons.ts) words it for people.
 */
export type Refusal =
  | { kind: 'unreadable' | 'encrypted' | 'noTextLayer' | 'noText' }
  | { kind: 'expanded'; bytes: number | null }
  | { kind: 'ratio'; ratio: number }
  | { kind: 'entries'; entries: number }
  | { kind: 'pages'; pages: number }
  | { kind: 'text' }
  | { kind: 'timeout' | 'memory' | 'crashed' | 'abandoned' };

/** A file that cannot be read, and why (a reason for people, never a stack). */
export class ExtractionFailure extends Error {
  constructor(
    readonly refusal: Refusal,
    cause?: Error,
  ) {
    super(refusal.kind, { cause });
    this.name = 'ExtractionFailure';
  }
}
