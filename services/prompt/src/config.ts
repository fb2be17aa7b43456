import { aiConfigShape, providerKeysConfigShape } from '@earshot/ai';
import type { BaseConfig } from '@earshot/kit';

/** Environment keys of the prompt service: the outbound rules for provider calls, and the credential of its internal key route. */
export const promptConfigShape = { ...aiConfigShape, INTERNAL_API_TOKEN: providerKeysConfigShape.INTERNAL_API_TOKEN };

export type PromptConfig = BaseConfig & { AI_ALLOW_PRIVATE_URLS: boolean; AI_TIMEOUT_MS: number; INTERNAL_API_TOKEN?: string };
