import { z } from 'zod';
import { MODEL_PURPOSES, PROVIDER_KINDS } from '../constants';
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
 * Services that call providers (chat, transcription) keep their own copy of providers and models
 * from these events. The API key never travels on them, not even sealed (external consumers read
 * the topics): a provider event says that the provider changed, and a service that needs the key
 * asks the prompt service for it.
 */
export const promptEvents = [
  defineEvent({
    type: 'ai_provider.created', version: 1, topic,
    description: 'The platform administrator added an AI provider.',
    data: change(ProviderState),
  }),
  defineEvent({
    type: 'ai_provider.updated', version: 1, topic,
    description: "An AI provider's settings or API key changed (the key itself is never on the event).",
    data: change(ProviderState),
  }),
  defineEvent({
    type: 'ai_provider.deleted', version: 1, topic,
    description: 'An AI provider (without models) was deleted.',
    data: change(ProviderState),
  }),
  defineEvent({
    type: 'ai_model.created', version: 1, topic,
    description: 'A model of a provider was added for a purpose (chat, speech-to-text, embeddings).',
    data: change(ModelState),
  }),
  defineEvent({
    type: 'ai_model.updated', version: 1, topic,
    description: "A model's settings changed (including losing its default mark to another model).",
    data: change(ModelState),
  }),
  defineEvent({
    type: 'ai_model.deleted', version: 1, topic,
    description: 'A model was deleted.',
    data: change(ModelState),
  }),
] as const;
