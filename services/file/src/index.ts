import { createStorage, defineService } from '@earshot/kit';
import { fileConfigShape, type FileConfig } from './config';
import { migrations } from './db/migrations';
import { fileRoutes } from './routes/files';
import { FileService } from './services/files';
import { applyCompanyEvent, applyTranscriptDeleted, applyTranscriptStatus } from './services/events';

const CONSUMER = 'file';

/** The file service. See README.md for what it owns. */
export const fileService = defineService<FileConfig>({
  name: 'file',
  schema: 'file',
  prefixes: ['/files', '/uploads'],
  migrations,
  configShape: fileConfigShape,
  async routes(app, ctx) {
    // Building the storage validates its configuration: a missing S3 key stops the start here.
    await fileRoutes(app, new FileService(ctx, createStorage(ctx.config)), ctx.config);
  },
  subscriptions: (ctx) => [
    {
      group: CONSUMER,
      topics: ['earshot.tenant', 'earshot.transcription'],
      handle: async (envelope) => {
        await ctx.applyOnce(CONSUMER, envelope, async (tx, emit) => {
          if (envelope.type.startsWith('company.')) await applyCompanyEvent(tx, envelope);
          else if (envelope.type === 'transcript.status_changed') await applyTranscriptStatus(tx, envelope);
          else if (envelope.type === 'transcript.deleted') await applyTranscriptDeleted(tx, emit, envelope, createStorage(ctx.config));
        });
      },
    },
  ],
});

export { FileService } from './services/files';
export { sniffAudio } from './services/audio-sniffer';
