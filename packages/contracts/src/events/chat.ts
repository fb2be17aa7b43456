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
    }),
  }),
  defineEvent({
    type: 'chat_feedback.given', version: 1, topic,
    description: 'A person rated a reply (or changed their rating).',
    data: z.object({ id: z.string(), messageId: z.string(), rating: z.enum(['up', 'down']), hasComment: z.boolean() }),
  }),
] as const;
