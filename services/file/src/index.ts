import { createStorage, defineService, type ServiceContext } from '@earshot/kit';
import { fileConfigShape, type FileConfig } from './config';
import { migrations } from './db/migrations';
import { fileRoutes } from './routes/files';
import { FileService } from './services/files';
import { applyCompanyEvent, applyTranscriptDeleted, applyTranscriptStatus } from './services/events';

const CONSUMER = 'file';
const services = new WeakMap<ServiceContext<FileConfig>, FileService>();

/** One FileService (and storage) per mounted context; building the storage validates its config. */
function fileServiceOf(ctx: ServiceContext<FileConfig>): FileService {
  let service = services.get(ctx);
  if (!service) {
    service = new FileService(ctx, createStorage(ctx.config));
    services.set(ctx, service);
  }
  return service;
}

/** The file service. See README.md for what it owns. */
export const fileService = defineService<FileConfig>({
  name: 'file',
  schema: 'file',
  prefixes: ['/files', '/uploads'],
  migrations,
  configShape: fileConfigShape,
  async routes(app, ctx) {
    await fileRoutes(app, fileServiceOf(ctx), ctx.config);
  },
  subscriptions: (ctx) => [
    {
      group: CONSUMER,
      topics: ['earshot.tenant', 'earshot.transcription'],
      handle: async (envelope) => {
        const storage = fileServiceOf(ctx).storage;
        await ctx.applyOnce(CONSUMER, envelope, async (tx, emit) => {
          if (envelope.type.startsWith('company.')) await applyCompanyEvent(tx, envelope);
          else if (envelope.type === 'transcript.status_changed') await applyTranscriptStatus(tx, envelope);
          else if (envelope.type === 'transcript.deleted') await applyTranscriptDeleted(tx, emit, envelope, storage);
        });
      },
    },
  ],
});

export { FileService } from './services/files';
export { sniffAudio } from './services/audio-sniffer';
