import { z } from 'zod';
import { aiConfigShape, providerKeysConfigShape } from '@earshot/ai';
import {
  encryptionConfigShape,
  storageConfigShape,
  type BaseConfig,
  type EncryptionConfig,
  type StorageConfig,
} from '@earshot/kit';

/** Environment keys of the chat service. */
export const chatConfigShape = {
  ...aiConfigShape,
  /** Where knowledge files' originals are kept (the same storage as the file service's). */
  ...storageConfigShape,
  /** Encryption at rest: the master key that wraps chat's data keys of the companies. */
  ...encryptionConfigShape,
  /** Where to ask for a provider's key when the prompt service runs in another process. */
  ...providerKeysConfigShape,
  /** Transcript passages the assistant quotes, or gives a model as context. */
  CHAT_PASSAGES: z.coerce.number().int().min(1).max(20).default(5),
  /** Earlier messages a model is given with the question (newest first, within the budget below). */
  CHAT_HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
  /** Characters of earlier messages a model is given at most; a model's context size lowers it. */
  CHAT_HISTORY_CHARS: z.coerce.number().int().min(1000).max(2_000_000).default(24_000),
  /** A model's context window (tokens) when its configuration gives none: bounds the transcript a question about one recording sends. */
  CHAT_CONTEXT_TOKENS: z.coerce.number().int().min(1000).max(10_000_000).default(32_000),
  // Reading a knowledge file (in a thread of its own): the defaults fit a 2-core, small-memory machine.
  /** Bytes a DOCX's zip entries may unpack to, read from its directory before anything is inflated. */
  KNOWLEDGE_MAX_EXPANDED_BYTES: z.coerce
    .number()
    .int()
    .min(65_536)
    .max(2_000_000_000)
    .default(50 * 1024 * 1024),
  /** How many times smaller than its content a zip entry (of 1 MB or more) may be. */
  KNOWLEDGE_MAX_ZIP_RATIO: z.coerce.number().int().min(10).max(1100).default(200),
  /** Pages of a PDF, counted before any page is read. */
  KNOWLEDGE_MAX_PAGES: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  /** Bytes (UTF-8) of text one file may yield; reading stops as soon as it is passed. */
  KNOWLEDGE_MAX_TEXT_BYTES: z.coerce
    .number()
    .int()
    .min(4096)
    .max(500_000_000)
    .default(5 * 1024 * 1024),
  /** Longest the reading of one file may take. */
  KNOWLEDGE_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** The reading thread's JavaScript heap (MB); the process's resident memory may grow twice this while it reads. */
  KNOWLEDGE_EXTRACT_MEMORY_MB: z.coerce.number().int().min(32).max(16_384).default(256),
  /** Knowledge files of one company (or the platform's GPTs) worked on at once across every chat process. */
  KNOWLEDGE_COMPANY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(1),
};

export type ChatConfig = BaseConfig & StorageConfig & EncryptionConfig & z.infer<z.ZodObject<typeof chatConfigShape>>;
