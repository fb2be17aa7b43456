import { createStorage, type ServiceContext } from '@earshot/kit';
import type { TranscriptionConfig } from './config';
import { createEngine } from './engines';
import { Limiter } from './services/limiter';
import type { PipelineDeps } from './services/pipeline';
import type { QueueSettings } from './services/queue';
import { TranscriptionWorker, type WorkerOptions } from './services/worker';

export function queueSettings(config: TranscriptionConfig): QueueSettings {
  return { leaseMs: config.TRANSCRIPTION_LEASE_MS, maxAttempts: config.TRANSCRIPTION_MAX_ATTEMPTS, retryBaseMs: config.TRANSCRIPTION_RETRY_BASE_MS };
}

/** What the pipeline needs, built from the same environment the file service reads (storage). */
export function pipelineDeps(config: TranscriptionConfig): PipelineDeps {
  return {
    storage: createStorage(config),
    engine: createEngine(config),
    ffmpeg: { ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH },
    decoders: new Limiter(config.TRANSCRIPTION_CONCURRENCY),
  };
}

/** A worker for this context; `overrides` lets a caller (a test, the stand-alone runner) set its id and limits. */
export function createWorker(ctx: ServiceContext<TranscriptionConfig>, overrides: Partial<WorkerOptions> = {}): TranscriptionWorker {
  const config = ctx.config;
  return new TranscriptionWorker(ctx as unknown as ServiceContext, pipelineDeps(config), {
    ...queueSettings(config),
    concurrency: config.TRANSCRIPTION_CONCURRENCY,
    pollMs: config.TRANSCRIPTION_POLL_MS,
    ...overrides,
  });
}
