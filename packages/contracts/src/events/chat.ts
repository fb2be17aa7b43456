import { z } from 'zod';
import { UsageDto } from '../api/chat';
import { GPT_SCOPES, GPT_VISIBILITIES, MESSAGE_STATUSES } from '../constants';
import { defineEvent } from './envelope';

const topic = 'earshot.chat';

// Conversations are private: events carry ids, models and usage, never what people wrote.
export const chatEvents = [
  defineEvent({
    type: 'conversation.created',
    version: 1,
    topic,
    description: 'A person started a conversation.',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'conversation.renamed',
    version: 1,
    topic,
    description: 'A conversation got a new title (by its owner, or from its first message).',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'conversation.deleted',
    version: 1,
    topic,
    description: 'A conversation and its messages were deleted by their owner.',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'chat_reply.finished',
    version: 1,
    topic,
    description:
      'The assistant finished (or was stopped in, or failed) a reply; usage is what the provider reported, for credits.',
    data: z.object({
      conversationId: z.string(),
      messageId: z.string(),
      model: z.string(),
      providerId: z.string().nullable(),
      builtIn: z.boolean(),
      status: z.enum(MESSAGE_STATUSES),
      usage: UsageDto.nullable(),
      /** The AI configuration model (`_id`) that answered, for its price (null: the built-in assistant). */
      modelId: z.string().nullable().optional(),
      /** The custom GPT the conversation is with, if any (metered as that feature). */
      customGptId: z.string().nullable().optional(),
    }),
  }),
  defineEvent({
    type: 'embeddings.used',
    version: 1,
    topic,
    description:
      'The chat service had an embeddings model embed text (knowledge files, a re-embedding, a question), for credits.',
    data: z.object({
      modelId: z.string(),
      tokens: z.number().int().min(0),
      purpose: z.enum(['knowledge', 'reembed', 'query']),
      customGptId: z.string().nullable(),
      fileId: z.string().nullable(),
    }),
  }),
  // Custom GPTs and their knowledge files: ids, settings and counts, never instructions or file text.
  defineEvent({
    type: 'custom_gpt.created',
    version: 1,
    topic,
    description: 'An administrator made a custom GPT (or duplicated one: duplicateOf names the original).',
    data: z.object({
      id: z.string(),
      scope: z.enum(GPT_SCOPES),
      visibility: z.enum(GPT_VISIBILITIES),
      enabled: z.boolean(),
      modelId: z.string().nullable(),
      searchTranscripts: z.boolean(),
      duplicateOf: z.string().nullable(),
    }),
  }),
  defineEvent({
    type: 'custom_gpt.updated',
    version: 1,
    topic,
    description: 'A custom GPT changed; changed names the fields that did (never their values for text fields).',
    data: z.object({
      id: z.string(),
      changed: z.array(z.string()),
      visibility: z.enum(GPT_VISIBILITIES),
      enabled: z.boolean(),
      modelId: z.string().nullable(),
    }),
  }),
  defineEvent({
    type: 'custom_gpt.deleted',
    version: 1,
    topic,
    description: 'A custom GPT was deleted with its knowledge files, their chunks and vectors.',
    data: z.object({ id: z.string(), files: z.number().int().min(0) }),
  }),
  defineEvent({
    type: 'knowledge_file.added',
    version: 1,
    topic,
    description: 'A knowledge file was uploaded to a custom GPT and queued for processing.',
    data: z.object({ id: z.string(), customGptId: z.string(), mimeType: z.string(), size: z.number().int().min(0) }),
  }),
  defineEvent({
    type: 'knowledge_file.ready',
    version: 1,
    topic,
    description: 'A knowledge file was extracted, chunked and indexed: it answers questions now.',
    data: z.object({
      id: z.string(),
      customGptId: z.string(),
      pages: z.number().int().nullable(),
      chunks: z.number().int().min(0),
      /** The embeddings model its vectors were made with (null: full-text search only). */
      embeddingsModelId: z.string().nullable(),
    }),
  }),
  defineEvent({
    type: 'knowledge_file.failed',
    version: 1,
    topic,
    description: 'A knowledge file could not be processed; reason is what the file list shows.',
    data: z.object({ id: z.string(), customGptId: z.string(), reason: z.string() }),
  }),
  defineEvent({
    type: 'knowledge_file.deleted',
    version: 1,
    topic,
    description: 'A knowledge file was removed from a custom GPT with its chunks and vectors.',
    data: z.object({ id: z.string(), customGptId: z.string() }),
  }),
  defineEvent({
    type: 'chat_feedback.given',
    version: 1,
    topic,
    description: 'A person rated a reply (or changed their rating).',
    data: z.object({ id: z.string(), messageId: z.string(), rating: z.enum(['up', 'down']), hasComment: z.boolean() }),
  }),
] as const;
