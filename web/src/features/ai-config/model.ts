// Shapes of the prompt service's /ai/config answers that this page reads. They mirror
// packages/contracts/src/api/prompt.ts (the web app does not import the server contracts);
// contract-types.test.ts fails when the two drift apart.

export const MODEL_PURPOSES = ['chat', 'speech-to-text', 'embeddings'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];
/** Every list of this page on one screen: the server's largest page. */
export const LIST_PAGE_SIZE = 200;

export interface AiProvider {
  _id: string;
  name: string;
  kind: 'openai-compatible';
  baseUrl: string;
  enabled: boolean;
  hasApiKey: boolean;
  apiKeyLast4: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AiModel {
  _id: string;
  providerId: string;
  providerName: string;
  name: string;
  label: string;
  purpose: ModelPurpose;
  isDefault: boolean;
  contextSize: number | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface ProviderBody {
  name?: string;
  baseUrl?: string;
  /** Absent keeps the saved key; null removes it. */
  apiKey?: string | null;
  enabled?: boolean;
}

export interface ModelBody {
  providerId?: string;
  name?: string;
  label?: string;
  purpose?: ModelPurpose;
  isDefault?: boolean;
  contextSize?: number | null;
  enabled?: boolean;
}

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  models?: string[];
  latencyMs?: number;
}
