// The prompt service's /ai/config answers and bodies are the contracts' types (type-only imports:
// no zod in the bundle); this file adds the page's own constants.
import { PAGE_SIZE_MAX } from '@earshot/contracts/constants';

export type {
  AiModelDto as AiModel,
  AiModelList,
  AiProviderDto as AiProvider,
  AiProviderList,
  ConnectionTestResult,
  ProviderModelList,
  UpdateAiModelBody as ModelBody,
  UpdateAiProviderBody as ProviderBody,
} from '@earshot/contracts';
export { MODEL_PURPOSES, type ModelPurpose } from '@earshot/contracts/constants';

/** Every list of this page on one screen: the server's largest page. */
export const LIST_PAGE_SIZE = PAGE_SIZE_MAX;
