import { z } from 'zod';
import { ActionItems } from '../api/analysis';
import { MODEL_PURPOSES, PATTERN_AUTO_RUN, PROMPT_SCOPES, PROMPT_TYPES, PROVIDER_KINDS } from '../constants';
import { PRICE_UNITS } from '../credit-constants';
import { change, defineEvent } from './envelope';

const topic = 'earshot.prompt';

/** A provider's settings as events carry them: never the key itself, only its last four characters. */
export const ProviderState = z.object({
  name: z.string(),
  kind: z.enum(PROVIDER_KINDS),
  baseUrl: z.string(),
  enabled: z.boolean(),
  apiKeyLast4: z.string().nullable(),
});
export type ProviderState = z.infer<typeof ProviderState>;

export const ModelState = z.object({
  providerId: z.string(),
  name: z.string(),
  label: z.string(),
  purpose: z.enum(MODEL_PURPOSES),
  isDefault: z.boolean(),
  contextSize: z.number().int().nullable(),
  enabled: z.boolean(),
});
export type ModelState = z.infer<typeof ModelState>;

/**
 * A prompt as its events carry it: what audit needs (name, type, who may run it, the version and
 * the expected format's field names), not the prompt text.
 */
export const PromptState = z.object({
  name: z.string(),
  type: z.enum(PROMPT_TYPES),
  scope: z.enum(PROMPT_SCOPES).nullable(),
  isGlobal: z.boolean(),
  companies: z.array(z.string()),
  users: z.array(z.string()),
  version: z.number().int(),
  fields: z.array(z.string()),
});
export type PromptState = z.infer<typeof PromptState>;

export const PatternState = z.object({
  name: z.string(),
  companyId: z.string().nullable(),
  promptIds: z.array(z.string()),
  autoRun: z.enum(PATTERN_AUTO_RUN),
});
export type PatternState = z.infer<typeof PatternState>;

/**
 * An analysis run that ended, as credits and dashboards count it: ids, the prompt version, the
 * model and the tokens it used, never the transcript nor the result. `userId` is who asked (null
 * for a pattern that ran by itself).
 */
const AnalysisOutcome = z.object({
  id: z.string(),
  fileId: z.string(),
  promptId: z.string(),
  promptVersion: z.number().int(),
  patternId: z.string().nullable(),
  model: z.string().nullable(),
  /** The AI configuration model (`_id`) that ran it, for its price; absent on events written before pricing. */
  modelId: z.string().nullable().optional(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
  durationMs: z.number().int(),
  userId: z.string().nullable(),
});

/**
 * Services that call providers (chat, transcription) keep their own copy of providers and models
 * from these events. The API key never travels on them, not even sealed (external consumers read
 * the topics): a provider event says that the provider changed, and a service that needs the key
 * asks the prompt service for it.
 */
export const promptEvents = [
  defineEvent({
    type: 'ai_provider.created',
    version: 1,
    topic,
    description: 'The platform administrator added an AI provider.',
    data: change(ProviderState),
  }),
  defineEvent({
    type: 'ai_provider.updated',
    version: 1,
    topic,
    description: "An AI provider's settings or API key changed (the key itself is never on the event).",
    data: change(ProviderState),
  }),
  defineEvent({
    type: 'ai_provider.deleted',
    version: 1,
    topic,
    description: 'An AI provider (without models) was deleted.',
    data: change(ProviderState),
  }),
  defineEvent({
    type: 'ai_model.created',
    version: 1,
    topic,
    description:
      'A model of a provider was added for a purpose (chat, speech-to-text, embeddings). `prices`, when present, are the prices it starts at (the tenant service sets them; the local-AI servers registered at first start are free).',
    data: change(ModelState).extend({
      prices: z
        .array(z.object({ unit: z.enum(PRICE_UNITS), credits: z.number().min(0) }))
        .max(PRICE_UNITS.length)
        .optional(),
    }),
  }),
  defineEvent({
    type: 'ai_model.updated',
    version: 1,
    topic,
    description: "A model's settings changed (including losing its default mark to another model).",
    data: change(ModelState),
  }),
  defineEvent({
    type: 'ai_model.deleted',
    version: 1,
    topic,
    description: 'A model was deleted.',
    data: change(ModelState),
  }),
  defineEvent({
    type: 'prompt.created',
    version: 1,
    topic,
    description: 'The platform administrator created a prompt (version 1).',
    data: change(PromptState),
  }),
  defineEvent({
    type: 'prompt.updated',
    version: 1,
    topic,
    description: 'A prompt changed: a new version when its content changed, or who may run it.',
    data: change(PromptState),
  }),
  defineEvent({
    type: 'prompt.deleted',
    version: 1,
    topic,
    description: 'A prompt was deleted (its versions stay for the results made with them).',
    data: change(PromptState),
  }),
  defineEvent({
    type: 'analysis_pattern.created',
    version: 1,
    topic,
    description: 'An analysis pattern (prompts run together) was created: global (companyId null) or for a company.',
    data: change(PatternState),
  }),
  defineEvent({
    type: 'analysis_pattern.updated',
    version: 1,
    topic,
    description: "An analysis pattern's name, prompts or automatic runs changed.",
    data: change(PatternState),
  }),
  defineEvent({
    type: 'analysis_pattern.deleted',
    version: 1,
    topic,
    description: 'An analysis pattern was deleted.',
    data: change(PatternState),
  }),
  defineEvent({
    type: 'analysis.completed',
    version: 1,
    topic,
    description:
      "An analysis run of a transcript completed with a result valid against its prompt version's expected format.",
    data: AnalysisOutcome,
  }),
  defineEvent({
    type: 'analysis.action_items_proposed',
    version: 1,
    topic,
    description:
      'A run of the built-in "Action items" prompt found follow-ups in a call (after its analysis.completed): the tasks service keeps them until a person turns some into tasks.',
    data: z.object({ runId: z.string(), fileId: z.string(), items: ActionItems }),
  }),
  defineEvent({
    type: 'analysis.failed',
    version: 1,
    topic,
    description:
      'An analysis run failed (no chat model, a provider error, or an answer that stayed invalid); tokens already used are counted.',
    data: AnalysisOutcome.extend({ reason: z.string() }),
  }),
] as const;
