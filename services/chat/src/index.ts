import { aiCatalogue, providerKeysFor } from '@earshot/ai';
import {
  ContextTimers,
  createStorage,
  creditGateFor,
  defineService,
  on,
  processCreditGate,
  startDailyJob,
  type HandlerSpec,
  type ServiceContext,
} from '@earshot/kit';
import { chatConfigShape, type ChatConfig } from './config';
import { migrations } from './db/migrations';
import { chatRoutes } from './routes/chat';
import { customGptRoutes } from './routes/custom-gpts';
import { companyRemoval } from './services/company-removal';
import { companyTypes } from './services/company-types';
import { ConversationService } from './services/conversations';
import { CustomGptService } from './services/custom-gpts';
import { encryptionOf, startChatEncryptionPass } from './services/encryption';
import { Embedder } from './services/knowledge/embeddings';
import { KnowledgeFileService } from './services/knowledge/files';
import { KnowledgeQueue, knowledgeQueue, registerKnowledgeQueue } from './services/knowledge/queue';
import { KnowledgeRetrieval } from './services/knowledge/retrieval';
import { chatErasePart, chatExportPart } from './services/privacy';
import { ReplyService } from './services/replies';
import { chatRetention, retention } from './services/retention';
import { redactionModes } from './services/redaction';
import {
  applyClientDeleted,
  applyClientLinked,
  applyClientSaved,
  applyFileDeleted,
  applyFileUploaded,
  applyTranscriptDeleted,
  transcriptCopyOf,
} from './services/transcripts';

/** Wakes this process's knowledge queue (an upload, a change of the AI configuration). */
const wake = (ctx: ServiceContext<ChatConfig>) => () => knowledgeQueue(ctx.database)?.nudge();

/** The same handler, then `after` once its transaction committed. */
const waking = (spec: HandlerSpec, after: () => void): HandlerSpec => ({
  ...spec,
  prepare(envelope) {
    const prepared = spec.prepare(envelope);
    return {
      ...prepared,
      afterCommit: () => {
        prepared.afterCommit?.();
        after();
      },
    };
  },
});

const timers = new ContextTimers();

/** The chat service. See README.md for what it owns. */
export const chatService = defineService<ChatConfig>({
  name: 'chat',
  schema: 'chat',
  prefixes: ['/chat', '/custom-gpt'],
  migrations,
  configShape: chatConfigShape,
  async routes(app, ctx) {
    const catalogue = aiCatalogue(ctx);
    // Knowledge files of a company with encryption on are stored encrypted; reads decrypt.
    const { storage } = encryptionOf(ctx);
    const embedder = new Embedder(ctx, catalogue);
    registerKnowledgeQueue(ctx.database, new KnowledgeQueue(ctx, storage, embedder));
    const gpts = new CustomGptService(ctx);
    const conversations = new ConversationService(ctx, catalogue, gpts);
    const retrieval = new KnowledgeRetrieval(ctx, embedder);
    await chatRoutes(
      app,
      conversations,
      new ReplyService(ctx, catalogue, conversations, retrieval, processCreditGate(ctx.database, ctx.config)),
    );
    await customGptRoutes(app, gpts, new KnowledgeFileService(ctx, gpts, storage, wake(ctx)));
  },
  subscriptions: (ctx) => {
    const copy = transcriptCopyOf(ctx);
    return [
      // A changed embeddings model is re-embedded in the background: wake the queue to start.
      ...aiCatalogue(ctx)
        .handlers()
        .map((handler) => waking(handler, wake(ctx))),
      ...companyTypes.handlers(),
      // Retention policies and company holds: what the daily chats retention may delete.
      ...retention.handlers(),
      // Each company's redaction mode: with it on, questions are redacted before they are stored or sent.
      ...redactionModes.handlers(),
      on('file.uploaded', (event, tx) => applyFileUploaded(tx, event)),
      // The transcript copy: sealed for a company with encryption on.
      on('transcript.completed', (event, tx) => copy.applyTranscriptCompleted(tx, event)),
      on('transcript.text_published', (event, tx) => copy.applyTextPublished(tx, event)),
      on('transcript.word_edited', (event, tx) => copy.applyWordEdited(tx, event)),
      on('transcript.segments_changed', (event, tx) => copy.applySegmentsChanged(tx, event)),
      on('transcript.deleted', (event, tx) => applyTranscriptDeleted(tx, event)),
      on('file.deleted', (event, tx) => applyFileDeleted(tx, event)),
      on('transcript.client_linked', (event, tx) => applyClientLinked(tx, event), {
        entity: (event) => `recording-client:${event.data.fileId}`,
      }),
      on('client.created', (event, tx) => applyClientSaved(tx, event), {
        entity: (event) => `client:${event.data.id}`,
      }),
      on('client.updated', (event, tx) => applyClientSaved(tx, event), {
        entity: (event) => `client:${event.data.id}`,
      }),
      on('client.deleted', (event, tx) => applyClientDeleted(tx, event), {
        entity: (event) => `client:${event.data.id}`,
      }),
      companyRemoval(createStorage(ctx.config), encryptionOf(ctx).ring),
      // The encryption switch of each company (company.policies_changed).
      ...encryptionOf(ctx).ring.handlers(),
      // A person's data: their conversations, exported or erased.
      chatExportPart(createStorage(ctx.config)),
      chatErasePart,
    ];
  },
  async start(ctx) {
    await encryptionOf(ctx).assertStartable();
    // Encrypts what a company stored before it turned encryption on, in the background.
    timers.add(ctx, startChatEncryptionPass(ctx));
    // Refuses to start, clearly, without a way to the prompt service for provider keys.
    providerKeysFor(ctx.database, ctx.config);
    knowledgeQueue(ctx.database)?.start();
    // The daily chats retention: at start and on a timer, run once per UTC day by whoever is first.
    const job = chatRetention(ctx);
    timers.add(
      ctx,
      startDailyJob(ctx.logger, 'chats retention', (now) => job.daily(now)),
    );
  },
  async stop(ctx) {
    timers.stop(ctx);
    await knowledgeQueue(ctx.database)?.stop();
  },
  // Called only when chat runs as its own process (distributed): it serves no internal route, but
  // refuses to start, clearly, without a way to the tenant service's credit check.
  async internalRoutes(_app, ctx) {
    creditGateFor(ctx.database, ctx.config);
  },
});

export type { ChatConfig } from './config';
export { knowledgeQueue } from './services/knowledge/queue';
