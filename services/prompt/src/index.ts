import { serveProviderKeysInProcess } from '@earshot/ai';
import {
  ConfigError,
  ContextTimers,
  creditGateFor,
  defineService,
  on,
  processCreditGate,
  type ServiceContext,
} from '@earshot/kit';
import { promptConfigShape, type PromptConfig } from './config';
import { migrations } from './db/migrations';
import { aiConfigRoutes } from './routes/ai-config';
import { dashboardRoutes } from './routes/dashboards';
import { analysisRoutes } from './routes/analysis';
import { internalRoutes } from './routes/internal';
import { patternRoutes } from './routes/patterns';
import { promptRoutes } from './routes/prompts';
import { companyRemoval } from './services/company-removal';
import { promptErasePart, promptExportPart } from './services/privacy';
import { companyTypes } from './services/company-types';
import { AnalysisService } from './services/analysis';
import { ConnectionTester } from './services/connection';
import { dashboardHandlers } from './services/dashboard-projection';
import { DashboardService } from './services/dashboards';
import { encryptionOf, startPromptEncryptionPass } from './services/encryption';
import { ModelService } from './services/models';
import { PatternService } from './services/patterns';
import { PromptService } from './services/prompts';
import { ProviderService } from './services/providers';
import { localAi, startLocalAi } from './services/local-ai';
import { AnalysisQueue, analysisQueue, registerQueue } from './services/queue';
import { AnalysisRunner } from './services/runner';
import * as projection from './services/transcripts';

function services(ctx: ServiceContext<PromptConfig>) {
  const tester = new ConnectionTester(ctx.config);
  const providers = new ProviderService(ctx, tester);
  return {
    providers,
    models: new ModelService(ctx, providers, tester),
    credits: processCreditGate(ctx.database, ctx.config),
  };
}

const timers = new ContextTimers();

/** Wakes this process's analysis queue (after a commit that made runs or completed a transcript's text). */
const wake = (ctx: ServiceContext<PromptConfig>) => () => analysisQueue(ctx.database)?.nudge();

/** The prompt service: AI providers and models, prompts, analysis patterns and analysis runs. See README.md. */
export const promptService = defineService<PromptConfig>({
  name: 'prompt',
  schema: 'prompt',
  prefixes: ['/prompts', '/analysis', '/ai', '/dashboards'],
  migrations,
  configShape: promptConfigShape,
  async routes(app, ctx) {
    const { providers, models, credits } = services(ctx);
    // Chat and transcription mounted in this same process (all-in-one) ask for keys here.
    serveProviderKeysInProcess(ctx.database, providers);
    registerQueue(ctx.database, new AnalysisQueue(ctx, (run) => new AnalysisRunner(ctx, providers, credits).work(run)));
    await aiConfigRoutes(app, providers, models);
    await promptRoutes(app, new PromptService(ctx));
    await patternRoutes(app, new PatternService(ctx));
    await analysisRoutes(app, new AnalysisService(ctx, wake(ctx), credits));
    await dashboardRoutes(app, new DashboardService(ctx));
  },
  subscriptions: (ctx) => [
    on('file.uploaded', (event, tx) => projection.applyFileUploaded(tx, event)),
    // The transcript copy: its text sealed for a company with encryption on.
    on('transcript.completed', (event, tx) => projection.applyTranscriptCompleted(tx, event, encryptionOf(ctx)), {
      afterCommit: wake(ctx),
    }),
    on('transcript.text_published', (event, tx) => projection.applyTextPublished(tx, event, encryptionOf(ctx)), {
      afterCommit: wake(ctx),
    }),
    on('transcript.word_edited', (event, tx) => projection.applyWordEdited(tx, event, encryptionOf(ctx))),
    on('transcript.segments_changed', (event, tx) => projection.applySegmentsChanged(tx, event, encryptionOf(ctx))),
    on('transcript.client_linked', (event, tx) => projection.applyClientLinked(tx, event), { afterCommit: wake(ctx) }),
    on('transcript.deleted', (event, tx) => projection.applyRemoved(tx, event.data.fileId)),
    on('file.deleted', (event, tx) => projection.applyRemoved(tx, event.data.id)),
    // Per client, the newest event wins: a late client.updated cannot bring back a deleted client.
    ...(['client.created', 'client.updated', 'client.deleted'] as const).map((type) =>
      on(type, (event, tx) => projection.applyClient(tx, event), { entity: (event) => event.data.id }),
    ),
    ...(['company.created', 'company.updated'] as const).map((type) =>
      on(type, (event, tx) => projection.applyCompany(tx, event), { entity: (event) => event.data.id }),
    ),
    // Which companies are b2c: their members' files are private to each.
    ...companyTypes.handlers(),
    // The dashboards' read model: after the transcript copy's handlers, which it reads.
    ...dashboardHandlers(),
    companyRemoval(encryptionOf(ctx).ring),
    // The encryption switch of each company (company.policies_changed).
    ...encryptionOf(ctx).ring.handlers(),
    // A person's data: the analysis runs they asked for, exported or erased.
    promptExportPart(ctx.config),
    promptErasePart,
  ],
  async start(ctx) {
    await encryptionOf(ctx).assertStartable();
    // Seals what a company's copy held before it turned encryption on, in the background.
    timers.add(ctx, startPromptEncryptionPass(ctx));
    await analysisQueue(ctx.database)?.start();
    // In the background: the local-AI servers may start after this process.
    startLocalAi(ctx);
  },
  async stop(ctx) {
    timers.stop(ctx);
    await localAi(ctx.database)?.stop();
    await analysisQueue(ctx.database)?.stop();
  },
  async internalRoutes(app, ctx) {
    const token = ctx.config.INTERNAL_API_TOKEN;
    if (!token)
      throw new ConfigError([
        'INTERNAL_API_TOKEN: required when the prompt service runs on its own (chat and transcription ask it for provider keys)',
      ]);
    // Analysis runs ask the tenant service whether they may spend: refuse to start without the way to it.
    creditGateFor(ctx.database, ctx.config);
    await internalRoutes(app, services(ctx).providers, token);
  },
});

export { analysisQueue } from './services/queue';
export { localAi } from './services/local-ai';
export { callMetrics } from './services/metrics';
export type { PromptConfig } from './config';
