import { z } from 'zod';
import { UsageDto } from '../api/chat';
import { MESSAGE_STATUSES } from '../constants';
import { defineEvent } from './envelope';

const topic = 'earshot.chat';

// Conversations are private: events carry ids, models and usage, never what people wrote.
export const chatEvents = [
  defineEvent({
    type: 'conversation.created', version: 1, topic,
    description: 'A person started a conversation.',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'conversation.renamed', version: 1, topic,
    description: 'A conversation got a new title (by its owner, or from its first message).',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'conversation.deleted', version: 1, topic,
    description: 'A conversation and its messages were deleted by their owner.',
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'chat_reply.finished', version: 1, topic,
    description: 'The assistant finished (or was stopped in, or failed) a reply; usage is what the provider reported, for credits.',
    data: z.object({
      conversationId: z.string(), messageId: z.string(), model: z.string(), providerId: z.string().nullable(), builtIn: z.boolean(),
      status: z.enum(MESSAGE_STATUSES), usage: UsageDto.nullable(),
      /** The AI configuration model (`_id`) that answered, for its price (null: the built-in assistant). */
      modelId: z.string().nullable().optional(),
      /** The custom GPT the conversation is with, if any (metered as that feature). */
      customGptId: z.string().nullable().optional(),
    }),
  }),
  defineEvent({
    type: 'embeddings.used', version: 1, topic,
    description: 'The chat service had an embeddings model embed text (knowledge files, a re-embedding, a question), for credits.',
    data: z.object({
      modelId: z.string(), tokens: z.number().int().min(0), purpose: z.enum(['knowledge', 'reembed', 'query']),
      customGptId: z.string().nullable(), fileId: z.string().nullable(),
    }),
  }),
  defineEvent({
    type: 'chat_feedback.given', version: 1, topic,
    description: 'A person rated a reply (or changed their rating).',
    data: z.object({ id: z.string(), messageId: z.string(), rating: z.enum(['up', 'down']), hasComment: z.boolean() }),
  }),
] as const;
