import { aiCatalogue, providerKeysFor } from '@earshot/ai';
import { creditGateFor, defineService, on, processCreditGate } from '@earshot/kit';
import { chatConfigShape, type ChatConfig } from './config';
import { migrations } from './db/migrations';
import { chatRoutes } from './routes/chat';
import { companyRemoval } from './services/company-removal';
import { companyTypes } from './services/company-types';
import { ConversationService } from './services/conversations';
import { ReplyService } from './services/replies';
import {
  applyClientDeleted,
  applyClientLinked,
  applyClientSaved,
  applyFileDeleted,
  applyFileUploaded,
  applyTextPublished,
  applyTranscriptCompleted,
  applyTranscriptDeleted,
  applyWordEdited,
} from './services/transcripts';

/** The chat service. See README.md for what it owns. */
export const chatService = defineService<ChatConfig>({
  name: 'chat',
  schema: 'chat',
  prefixes: ['/chat', '/custom-gpt'],
  migrations,
  configShape: chatConfigShape,
  async routes(app, ctx) {
    const catalogue = aiCatalogue(ctx);
    const conversations = new ConversationService(ctx, catalogue);
    await chatRoutes(app, conversations, new ReplyService(ctx, catalogue, conversations, processCreditGate(ctx.database, ctx.config)));
  },
  subscriptions: (ctx) => [
    ...aiCatalogue(ctx).handlers(),
    ...companyTypes.handlers(),
    on('file.uploaded', (event, tx) => applyFileUploaded(tx, event)),
    on('transcript.completed', (event, tx) => applyTranscriptCompleted(tx, event)),
    on('transcript.text_published', (event, tx) => applyTextPublished(tx, event)),
    on('transcript.word_edited', (event, tx) => applyWordEdited(tx, event)),
    on('transcript.deleted', (event, tx) => applyTranscriptDeleted(tx, event)),
    on('file.deleted', (event, tx) => applyFileDeleted(tx, event)),
    on('transcript.client_linked', (event, tx) => applyClientLinked(tx, event), { entity: (event) => `recording-client:${event.data.fileId}` }),
    on('client.created', (event, tx) => applyClientSaved(tx, event), { entity: (event) => `client:${event.data.id}` }),
    on('client.updated', (event, tx) => applyClientSaved(tx, event), { entity: (event) => `client:${event.data.id}` }),
    on('client.deleted', (event, tx) => applyClientDeleted(tx, event), { entity: (event) => `client:${event.data.id}` }),
    companyRemoval,
  ],
  async start(ctx) {
    // Refuses to start, clearly, without a way to the prompt service for provider keys.
    providerKeysFor(ctx.database, ctx.config);
  },
  // Called only when chat runs as its own process (distributed): it serves no internal route, but
  // refuses to start, clearly, without a way to the tenant service's credit check.
  async internalRoutes(_app, ctx) {
    creditGateFor(ctx.database, ctx.config);
  },
});

export type { ChatConfig } from './config';
