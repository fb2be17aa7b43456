import { aiConfigShape, type BaseConfig } from '@earshot/kit';

/** Environment keys of the prompt service: the outbound rules for provider calls. */
export const promptConfigShape = { ...aiConfigShape };

export type PromptConfig = BaseConfig & { AI_ALLOW_PRIVATE_URLS: boolean; AI_TIMEOUT_MS: number };
