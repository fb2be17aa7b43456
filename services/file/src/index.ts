import { createStorage, defineService, on, type ServiceContext } from '@earshot/kit';
import { fileConfigShape, type FileConfig } from './config';
import { migrations } from './db/migrations';
import { fileRoutes } from './routes/files';
import { FileService } from './services/files';
import { applyCompanyEvent, applyTranscriptDeleted, applyTranscriptStatus } from './services/events';

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
  // Projections keep the newest state per company and per file's status: late events are skipped.
  subscriptions: (ctx) => [
    ...(['company.created', 'company.updated', 'company.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyCompanyEvent(tx, event), { entity: (event) => event.data.id })),
    on('transcript.status_changed', (event, tx) => applyTranscriptStatus(tx, event), { entity: (event) => event.data.fileId }),
    on('transcript.deleted', (event, tx, emit) => applyTranscriptDeleted(tx, emit, event, fileServiceOf(ctx).storage)),
  ],
});

export { FileService } from './services/files';
export { sniffAudio } from './services/audio-sniffer';
