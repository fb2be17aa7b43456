import { aiCatalogue } from '@earshot/ai';
import { ContextTimers, creditGateFor, defineService, on, processCreditGate, type ServiceContext } from '@earshot/kit';
import { transcriptionConfigShape, type TranscriptionConfig } from './config';
import { migrations } from './db/migrations';
import { mountedSpeechModels, speechModelManager } from './models/manager';
import { editRoutes } from './routes/edits';
import { exportRoutes } from './routes/exports';
import { originalRoutes } from './routes/originals';
import { queueRoutes } from './routes/queue';
import { searchRoutes } from './routes/search';
import { speechModelRoutes } from './routes/speech-models';
import { transcriptRoutes } from './routes/transcripts';
import { createWorker, engineChoice } from './runtime';
import { applyClientDeleted, applyClientSaved } from './services/clients';
import { companyRemoval } from './services/company-removal';
import { transcriptionErasePart, transcriptionExportPart } from './services/privacy';
import { companyTypes } from './services/company-types';
import { TranscriptEditService } from './services/edits/service';
import { applyUserDeleted, applyUserSaved } from './services/people';
import { applyCompanyLanguage, applyTagsChanged, SearchService } from './services/search';
import { ExportService } from './services/exports/service';
import { exportRenderer } from './services/exports/renderer';
import { applyFileDeleted, applyFileUploaded, TranscriptService } from './services/transcripts';
import { applyPoliciesChanged } from './redaction/policy';
import type { TranscriptionWorker } from './services/worker';
import { legalHolds } from './services/holds';
import { startWordsEncryptionPass, wordsOf } from './services/words-encryption';
import { OriginalsService, originalRemoval } from './services/originals';
import { QueuePositionService } from './services/queue-position';
import { assertAudioKeysReachable, audioStorage } from './services/audio-encryption';
import { transcriptionMetrics } from './metrics';

/** The in-process worker of each mounted context (all-in-one), when TRANSCRIPTION_WORKER is on. */
const workers = new WeakMap<ServiceContext<TranscriptionConfig>, TranscriptionWorker>();

const nudge = (ctx: ServiceContext<TranscriptionConfig>) => () => workers.get(ctx)?.nudge();

/** The background pass that seals a company's existing transcripts once it turns encryption on. */
const timers = new ContextTimers();

/** The transcription service. See README.md for what it owns. */
export const transcriptionService = defineService<TranscriptionConfig>({
  name: 'transcription',
  schema: 'transcription',
  prefixes: ['/transcripts', '/search', '/ai/speech-models'],
  migrations,
  configShape: transcriptionConfigShape,
  async routes(app, ctx) {
    const originals = new OriginalsService(ctx, audioStorage(ctx));
    await transcriptRoutes(
      app,
      new TranscriptService(ctx, nudge(ctx), engineChoice(ctx), processCreditGate(ctx.database, ctx.config)),
      originals,
    );
    await originalRoutes(app, originals);
    await editRoutes(app, new TranscriptEditService(ctx));
    await searchRoutes(app, new SearchService(ctx, wordsOf(ctx)));
    await speechModelRoutes(app, speechModelManager(ctx));
    await exportRoutes(app, new ExportService(ctx, exportRenderer(ctx)));
    await queueRoutes(app, new QueuePositionService(ctx));
  },
  // Called only when transcription runs as its own process (distributed): it serves no internal
  // route, but refuses to start, clearly, without a way to the tenant service's credit check or to
  // the file service's audio keys.
  async internalRoutes(_app, ctx) {
    creditGateFor(ctx.database, ctx.config);
    assertAudioKeysReachable(ctx);
  },
  subscriptions: (ctx) => [
    // A queued job wakes the in-process worker once committed (a worker finding nothing just idles).
    on('file.uploaded', (event, tx, emit) => applyFileUploaded(tx, emit, event, engineChoice(ctx)), {
      afterCommit: nudge(ctx),
    }),
    on('file.deleted', (event, tx) => applyFileDeleted(tx, event)),
    // Per client, the newest event wins: a late client.updated cannot bring back a deleted client.
    on('client.created', (event, tx) => applyClientSaved(tx, event), { entity: (event) => event.data.id }),
    on('client.updated', (event, tx) => applyClientSaved(tx, event), { entity: (event) => event.data.id }),
    on('client.deleted', (event, tx, emit) => applyClientDeleted(tx, emit, event), {
      entity: (event) => event.data.id,
    }),
    // The company's members by name, for naming speakers; per user, the newest event wins.
    on('user.created', (event, tx) => applyUserSaved(tx, event), { entity: (event) => event.data.id }),
    on('user.updated', (event, tx) => applyUserSaved(tx, event), { entity: (event) => event.data.id }),
    on('user.deleted', (event, tx) => applyUserDeleted(tx, event), { entity: (event) => event.data.id }),
    ...aiCatalogue(ctx).handlers(),
    // The words' data key is destroyed first (crypto-shredding), then the company's transcripts go.
    companyRemoval(wordsOf(ctx).ring),
    // Encryption at rest of words: each company's switch (company.policies_changed).
    ...wordsOf(ctx).ring.handlers(),
    // A person's data: the transcripts of their recordings, exported or erased.
    transcriptionExportPart(ctx.config, wordsOf(ctx)),
    transcriptionErasePart,
    // Which companies are b2c: their members' transcripts are private to each.
    ...companyTypes.handlers(),
    // Search: the language a company's transcripts are indexed in, and each recording's tags.
    ...(['company.created', 'company.updated'] as const).map((type) =>
      on(type, (event, tx) => applyCompanyLanguage(tx, wordsOf(ctx), event), { entity: (event) => event.data.id }),
    ),
    on('file.tags_changed', (event, tx) => applyTagsChanged(tx, event), { entity: (event) => event.data.id }),
    // Redaction: each company's mode, applied to the transcripts it finishes.
    on('company.policies_changed', (event, tx) => applyPoliciesChanged(tx, event), {
      entity: (event) => event.data.id,
    }),
    // Legal holds: a held recording's transcript is not deleted.
    ...legalHolds.handlers(),
    // Unredacted originals (keepOriginal) go with their recording and their company.
    ...originalRemoval(audioStorage(ctx)),
  ],
  metrics: transcriptionMetrics,
  async start(ctx) {
    // Sealed words with no master key to open them: refuse to start, saying what to set.
    await wordsOf(ctx).assertStartable();
    timers.add(ctx, startWordsEncryptionPass(ctx));
    // Downloads left running by a stopped process continue (API processes only).
    await mountedSpeechModels(ctx)?.start();
    if (!ctx.config.TRANSCRIPTION_WORKER) return;
    const worker = createWorker(ctx);
    workers.set(ctx, worker);
    await worker.start();
  },
  async stop(ctx) {
    timers.stop(ctx);
    await exportRenderer(ctx).close();
    await mountedSpeechModels(ctx)?.stop();
    await workers.get(ctx)?.stop();
    workers.delete(ctx);
  },
});

export { createWorker, jobDeps, pipelineDeps, queueSettings } from './runtime';
export { TranscriptionWorker, processJob } from './services/worker';
export { claimNext, completeJob, type ClaimedJob } from './services/queue';
export { transcribeStoredAudio } from './services/pipeline';
export { Limiter } from './services/limiter';
export { PocketSphinxEngine, parsePocketSphinx } from './engines/pocketsphinx';
export type { TranscriptionConfig } from './config';
