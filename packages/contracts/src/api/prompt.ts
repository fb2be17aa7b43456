import { z } from 'zod';
import { MODEL_PURPOSES, PROVIDER_KINDS } from '../constants';
import { Id, Name, PageQuery, paginated } from '../common';

const BaseUrl = z
  .string()
  .trim()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const ApiKey = z.string().trim().min(1).max(4000);

/** A provider as the API shows it: the key is never returned, only its last four characters. */
export const AiProviderDto = z.object({
  _id: z.string(),
  name: z.string(),
  kind: z.enum(PROVIDER_KINDS),
  baseUrl: z.string(),
  enabled: z.boolean(),
  hasApiKey: z.boolean(),
  apiKeyLast4: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AiProviderDto = z.infer<typeof AiProviderDto>;

export const CreateAiProviderBody = z
  .object({
    name: Name(120),
    kind: z.enum(PROVIDER_KINDS).default('openai-compatible'),
    baseUrl: BaseUrl,
    /** Optional: local servers (Ollama, LM Studio) need none. */
    apiKey: ApiKey.optional(),
    enabled: z.boolean().default(true),
  })
  .strict();
export type CreateAiProviderBody = z.infer<typeof CreateAiProviderBody>;

/** PATCH: absent fields stay; `apiKey: null` removes the key. */
export const UpdateAiProviderBody = z
  .object({
    name: Name(120).optional(),
    kind: z.enum(PROVIDER_KINDS).optional(),
    baseUrl: BaseUrl.optional(),
    apiKey: ApiKey.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdateAiProviderBody = z.infer<typeof UpdateAiProviderBody>;

export const AiProviderListQuery = PageQuery.extend({ search: z.string().trim().max(200).optional() }).strict();
export const AiProviderList = paginated(AiProviderDto);
export type AiProviderList = z.infer<typeof AiProviderList>;

export const AiModelDto = z.object({
  _id: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  name: z.string(),
  /** What people see in pickers; defaults to the model name. */
  label: z.string(),
  purpose: z.enum(MODEL_PURPOSES),
  isDefault: z.boolean(),
  contextSize: z.number().int().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AiModelDto = z.infer<typeof AiModelDto>;

const ModelFields = {
  providerId: Id,
  name: Name(200),
  label: Name(120).optional(),
  purpose: z.enum(MODEL_PURPOSES),
  /** Making one model the default of its purpose clears the previous default. */
  isDefault: z.boolean(),
  contextSize: z.number().int().min(256).max(10_000_000).nullable().optional(),
  enabled: z.boolean(),
};

export const CreateAiModelBody = z
  .object({
    ...ModelFields,
    isDefault: ModelFields.isDefault.default(false),
    enabled: ModelFields.enabled.default(true),
  })
  .strict();
export type CreateAiModelBody = z.infer<typeof CreateAiModelBody>;

// Built from the fields without defaults: zod 4 applies a default even inside .partial(), which
// would reset `isDefault`/`enabled` on every PATCH that leaves them out.
export const UpdateAiModelBody = z.object(ModelFields).partial().strict();
export type UpdateAiModelBody = z.infer<typeof UpdateAiModelBody>;

export const AiModelListQuery = PageQuery.extend({
  purpose: z.enum(MODEL_PURPOSES).optional(),
  providerId: Id.optional(),
}).strict();
export const AiModelList = paginated(AiModelDto);
export type AiModelList = z.infer<typeof AiModelList>;

/** GET /ai/config/model/dropdown: enabled models (of enabled providers), for pickers. */
export const AiModelDropdownQuery = z.object({ purpose: z.enum(MODEL_PURPOSES).optional() }).strict();
export const AiModelDropdownItem = z.object({
  _id: z.string(),
  name: z.string(),
  purpose: z.enum(MODEL_PURPOSES),
  isDefault: z.boolean(),
});
export const AiModelDropdown = z.array(AiModelDropdownItem);
export type AiModelDropdownItem = z.infer<typeof AiModelDropdownItem>;

/** POST /ai/config/provider/{id}/test and /ai/config/model/{id}/test: what the provider said. */
export const ConnectionTestResult = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** Models the provider lists, when it lists them (first 50). */
  models: z.array(z.string()).optional(),
  latencyMs: z.number().int().optional(),
});
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>;

/** GET /ai/config/providers/{id}/models: the model ids the provider lists, for the model form's picker. */
export const ProviderModelList = z.array(z.object({ id: z.string() }));
export type ProviderModelList = z.infer<typeof ProviderModelList>;
