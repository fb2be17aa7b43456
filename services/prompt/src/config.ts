import { z } from 'zod';
import { aiConfigShape, providerKeysConfigShape } from '@earshot/ai';
import type { BaseConfig } from '@earshot/kit';

/** Environment keys of the prompt service: the outbound rules for provider calls, the credential of its internal key route, and the analysis queue. */
export const promptConfigShape = {
  ...aiConfigShape,
  INTERNAL_API_TOKEN: providerKeysConfigShape.INTERNAL_API_TOKEN,
  /** Analysis runs worked on at once by this process. */
  ANALYSIS_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** How often the queue looks for runs made elsewhere (another replica; new runs of this process wake it at once). */
  ANALYSIS_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Context size (tokens) assumed for a chat model whose configuration gives none. */
  ANALYSIS_CONTEXT_TOKENS: z.coerce.number().int().min(1_000).max(10_000_000).default(8_192),
};

export type PromptConfig = BaseConfig & z.infer<z.ZodObject<typeof promptConfigShape>>;
