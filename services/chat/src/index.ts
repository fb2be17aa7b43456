import { aiCatalogue, providerKeysFor } from '@earshot/ai';
import { defineService, on } from '@earshot/kit';
import { chatConfigShape, type ChatConfig } from './config';
import { migrations } from './db/migrations';
import { chatRoutes } from './routes/chat';
import { ConversationService } from './services/conversations';
import { ReplyService } from './services/replies';
import { applyFileDeleted, applyTextPublished, applyTranscriptCompleted, applyTranscriptDeleted, applyWordEdited } from './services/transcripts';

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
    ...aiCatalogue(ctx).handlers(),
    on('transcript.completed', (event, tx) => applyTranscriptCompleted(tx, event)),
    on('transcript.text_published', (event, tx) => applyTextPublished(tx, event)),
    on('transcript.word_edited', (event, tx) => applyWordEdited(tx, event)),
    on('transcript.deleted', (event, tx) => applyTranscriptDeleted(tx, event)),
    on('file.deleted', (event, tx) => applyFileDeleted(tx, event)),
  ],
  async start(ctx) {
    // Refuses to start, clearly, without a way to the prompt service for provider keys.
    providerKeysFor(ctx.database, ctx.config);
  },
});

export type { ChatConfig } from './config';
