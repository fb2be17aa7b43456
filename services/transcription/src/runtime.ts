import { aiCatalogue } from '@earshot/ai';
import { createStorage, type ServiceContext } from '@earshot/kit';
import type { TranscriptionConfig } from './config';
import { createEngine, engineForModel } from './engines';
import { JobError } from './services/job-error';
import { Limiter } from './services/limiter';
import type { PipelineDeps } from './services/pipeline';
import { workRootOf } from './services/work-dirs';
import type { QueueSettings } from './services/queue';
import { TranscriptionWorker, type JobDeps, type WorkerOptions } from './services/worker';

export function queueSettings(config: TranscriptionConfig): QueueSettings {
  return { leaseMs: config.TRANSCRIPTION_LEASE_MS, maxAttempts: config.TRANSCRIPTION_MAX_ATTEMPTS, retryBaseMs: config.TRANSCRIPTION_RETRY_BASE_MS };
}

/** What the pipeline needs, built from the same environment the file service reads (storage). */
export function pipelineDeps(config: TranscriptionConfig): PipelineDeps & { workRoot: string } {
  return {
    workRoot: workRootOf(config),
    storage: createStorage(config),
    engine: createEngine(config),
    ffmpeg: { ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH },
    decoders: new Limiter(config.TRANSCRIPTION_CONCURRENCY),
  };
}

/**
 * The pipeline plus the per-job choice of engine: the speech-to-text model of AI Configuration
 * (its default, else the oldest enabled one) when there is one, so a change there applies to the
 * next job without a restart; TRANSCRIPTION_ENGINE otherwise.
 */
export function jobDeps(ctx: ServiceContext<TranscriptionConfig>): JobDeps {
  const catalogue = aiCatalogue(ctx);
  return {
    ...pipelineDeps(ctx.config),
    async chosenEngine() {
      let model;
      try {
        model = await catalogue.resolve('speech-to-text');
      } catch (error) {
        throw new JobError((error as Error).message, false);
      }
      return model ? engineForModel(model, ctx.config) : null;
    },
  };
}

/** A worker for this context; `overrides` lets a caller (a test, the stand-alone runner) set its id and limits. */
export function createWorker(ctx: ServiceContext<TranscriptionConfig>, overrides: Partial<WorkerOptions> = {}): TranscriptionWorker {
  const config = ctx.config;
  return new TranscriptionWorker(ctx, jobDeps(ctx), {
    ...queueSettings(config),
    concurrency: config.TRANSCRIPTION_CONCURRENCY,
    pollMs: config.TRANSCRIPTION_POLL_MS,
    ...overrides,
  });
}
