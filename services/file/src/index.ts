import {
  ConfigError,
  ContextTimers,
  createStorage,
  creditGateFor,
  defineService,
  LocalDiskStorage,
  on,
  processCreditGate,
  startDailyJob,
  startTempSweep,
} from '@earshot/kit';
import { fileConfigShape, type FileConfig } from './config';
import { migrations } from './db/migrations';
import { fileRoutes } from './routes/files';
import { tagRoutes } from './routes/tags';
import { fileHoldRoutes } from './routes/holds';
import { encryptionRoutes } from './routes/encryption';
import { internalRoutes } from './routes/internal';
import { FileHoldService } from './services/holds';
import { recordingRetention } from './services/retention';
import { retention } from './services/retention-projection';
import { companyRemoval } from './services/company-removal';
import { fileErasePart, fileExportPart } from './services/privacy';
import { companyTypes } from './services/company-types';
import { FileService } from './services/files';
import { encryptionOf, startEncryptionPass } from './services/encryption';
import { TagService } from './services/tags';
import { redactionModes } from './services/redaction';
import {
  applyClientLinked,
  applyCompanyEvent,
  applySpeakersChanged,
  applyAudioRedacted,
  applyTranscriptDeleted,
  applyTranscriptStatus,
} from './services/events';

const timers = new ContextTimers();

/** The file service. See README.md for what it owns. */
export const fileService = defineService<FileConfig>({
  name: 'file',
  schema: 'file',
  prefixes: ['/files', '/uploads', '/tags'],
  migrations,
  configShape: fileConfigShape,
  async routes(app, ctx) {
    // Building the storage validates its configuration: a missing S3 key stops the start here.
    // Uploads of a company with encryption on are stored encrypted; reads decrypt.
    await fileRoutes(
      app,
      new FileService(ctx, encryptionOf(ctx).storage, processCreditGate(ctx.database, ctx.config)),
      ctx.config,
    );
    await tagRoutes(app, new TagService(ctx));
    await fileHoldRoutes(app, new FileHoldService(ctx));
    await encryptionRoutes(app, encryptionOf(ctx));
  },
  // Called only when the file service runs as its own process (distributed): the companies' audio
  // keys, still wrapped, for the transcription service and its workers; and it refuses to start,
  // clearly, without a way to the tenant service's credit check.
  async internalRoutes(app, ctx) {
    creditGateFor(ctx.database, ctx.config);
    const token = ctx.config.INTERNAL_API_TOKEN;
    if (!token)
      throw new ConfigError([
        'INTERNAL_API_TOKEN: required when the file service runs on its own (the transcription service asks it for audio keys)',
      ]);
    await internalRoutes(app, encryptionOf(ctx), token);
  },
  // Projections keep the newest state per company and per file's status: late events are skipped.
  subscriptions: (ctx) => {
    // One storage client for every deletion, not one per event.
    const storage = createStorage(ctx.config);
    return [
      ...(['company.created', 'company.updated', 'company.deleted'] as const).map((type) =>
        on(type, (event, tx) => applyCompanyEvent(tx, event), { entity: (event) => event.data.id }),
      ),
      // Which companies are b2c: their members' recordings are private to each.
      ...companyTypes.handlers(),
      // Retention policies and client and company holds: what the daily retention may delete.
      ...retention.handlers(),
      // Each company's redaction mode: with it on, tags are redacted before they are stored.
      ...redactionModes.handlers(),
      on('transcript.status_changed', (event, tx) => applyTranscriptStatus(tx, event), {
        entity: (event) => event.data.fileId,
      }),
      // Links of one file come from one producer in order on the company's partition: no entity needed.
      on('transcript.client_linked', (event, tx) => applyClientLinked(tx, event)),
      // Likewise the speakers' names of one transcript: the list filters by them.
      on('transcript.speakers_changed', (event, tx) => applySpeakersChanged(tx, event)),
      on('transcript.audio_redacted', (event, tx) => applyAudioRedacted(tx, event), {
        entity: (event) => event.data.fileId,
      }),
      on('transcript.deleted', (event, tx, emit) => applyTranscriptDeleted(tx, emit, event, storage)),
      companyRemoval(storage, encryptionOf(ctx).ring),
      // The encryption switch of each company (company.policies_changed).
      ...encryptionOf(ctx).ring.handlers(),
      // A person's data: their recordings and audio, for the auth service's ZIP, or erased.
      fileExportPart(storage, encryptionOf(ctx).storage),
      fileErasePart(storage),
    ];
  },
  // The daily recordings retention: at start and on a timer, run once per UTC day by whoever is first.
  // On local disk, the partial files of uploads a crash cut short: at start and hourly. One sweep
  // serves every service's puts, which share the folder (distributed deployments use S3).
  async start(ctx) {
    await encryptionOf(ctx).assertStartable();
    timers.add(ctx, startEncryptionPass(ctx));
    const storage = createStorage(ctx.config);
    if (storage instanceof LocalDiskStorage) timers.add(ctx, await startTempSweep(storage, ctx.logger));
    const job = recordingRetention(ctx, storage);
    timers.add(
      ctx,
      startDailyJob(ctx.logger, 'recordings retention', (now) => job.daily(now)),
    );
  },
  async stop(ctx) {
    timers.stop(ctx);
  },
});

export { FileService } from './services/files';
export { sniffAudio } from './services/audio-sniffer';
