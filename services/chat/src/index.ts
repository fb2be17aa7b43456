import { aiCatalogue, providerKeysFor } from '@earshot/ai';
import { defineService } from '@earshot/kit';
import { chatConfigShape, type ChatConfig } from './config';
import { migrations } from './db/migrations';
import { chatRoutes } from './routes/chat';
import { ConversationService } from './services/conversations';
import { ReplyService } from './services/replies';
import { applyFileDeleted, applyTranscriptEvent } from './services/transcripts';

const CONSUMER = 'chat';

/** The chat service. See README.md for what it owns. */
export const chatService = defineService<ChatConfig>({
  name: 'chat',
  schema: 'chat',
  prefixes: ['/chat', '/custom-gpt'],
  migrations,
  configShape: chatConfigShape,
  async routes(app, ctx) {
    const catalogue = aiCatalogue(ctx);
    await chatRoutes(app, new ConversationService(ctx, catalogue), new ReplyService(ctx, catalogue));
  },
  subscriptions: (ctx) => [
    aiCatalogue(ctx).subscription(CONSUMER),
    {
      group: CONSUMER,
      topics: ['earshot.transcription', 'earshot.file'],
      handle: async (envelope) => {
        if (envelope.type.startsWith('transcript.')) await ctx.applyOnce(CONSUMER, envelope, (tx) => applyTranscriptEvent(tx, envelope));
        else if (envelope.type === 'file.deleted') await ctx.applyOnce(CONSUMER, envelope, (tx) => applyFileDeleted(tx, envelope));
      },
    },
  ],
  async start(ctx) {
    // Refuses to start, clearly, without a way to the prompt service for provider keys.
    providerKeysFor(ctx.database, ctx.config);
  },
});

export type { ChatConfig } from './config';
