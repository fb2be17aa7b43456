import { z } from 'zod';
import { aiConfigShape, providerKeysConfigShape } from '@earshot/ai';
import {
  encryptionConfigShape,
  storageConfigShape,
  type BaseConfig,
  type EncryptionConfig,
  type StorageConfig,
} from '@earshot/kit';

// Credentials never belong in these URLs: they are stored as the providers' base URLs, sent on
// events and logged (the servers take no key).
const optionalUrl = z
  .union([
    z.literal(''),
    z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .refine((url) => !/^https?:\/\/[^/]*@/i.test(url), 'must not carry a user name or password'),
  ])
  .default('');
/** Hugging Face repositories (`owner/name`) and Ollama tags (`name:tag`): no spaces, no control characters. */
const modelName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:/-]+$/, 'letters, digits and . _ : / - only');

/** Environment keys of the prompt service: the outbound rules for provider calls, the credential of its internal key route, and the analysis queue. */
export const promptConfigShape = {
  ...aiConfigShape,
  // Storage: its part of a person's export is written there.
  ...storageConfigShape,
  /** Encryption at rest: the master key that wraps prompt's data keys of the companies. */
  ...encryptionConfigShape,
  INTERNAL_API_TOKEN: providerKeysConfigShape.INTERNAL_API_TOKEN,
  /** Analysis runs worked on at once by this process. */
  ANALYSIS_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Analysis runs of one company running at once across every prompt process. */
  ANALYSIS_COMPANY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(2),
  /** How often the queue looks for runs made elsewhere (another replica; new runs of this process wake it at once). */
  ANALYSIS_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Context size (tokens) assumed for a chat model whose configuration gives none. */
  ANALYSIS_CONTEXT_TOKENS: z.coerce.number().int().min(1_000).max(10_000_000).default(8_192),
  /**
   * The local-AI servers (docs/operations.md, "Local AI"): an OpenAI-compatible speech server (speaches) and an
   * Ollama server, as their OpenAI-compatible base URLs (`…/v1`). Registered at first start, while
   * no provider exists; empty = not used.
   */
  LOCAL_AI_SPEECH_URL: optionalUrl,
  /** The speech model speaches installs and Earshot uses (a Hugging Face CTranslate2 repository). */
  LOCAL_AI_SPEECH_MODEL: modelName.default('Systran/faster-whisper-small'),
  LOCAL_AI_CHAT_URL: optionalUrl,
  /** The chat model Ollama pulls and Earshot uses (an Ollama tag). */
  LOCAL_AI_CHAT_MODEL: modelName.default('qwen2.5:1.5b'),
  /** Attempts to reach each local server (it may start after Earshot) and to have it fetch its model. */
  LOCAL_AI_ATTEMPTS: z.coerce.number().int().min(1).max(10_000).default(120),
  /** The first wait between attempts; it doubles up to 30 s. */
  LOCAL_AI_RETRY_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
};

export type PromptConfig = BaseConfig &
  StorageConfig &
  EncryptionConfig &
  z.infer<z.ZodObject<typeof promptConfigShape>>;
