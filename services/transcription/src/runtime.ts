import { aiCatalogue } from '@earshot/ai';
import { createStorage, type Db, type ServiceContext } from '@earshot/kit';
import type { EngineName, TranscriptionConfig } from './config';
import {
  createEngine,
  engineForModel,
  whisperHost,
  whisperModelMissing,
  WhisperEngine,
  type WhisperHost,
} from './engines';
import { defaultWhisperModel, readyModel, type ReadyModel } from './models/store';
import { JobError } from './services/job-error';
import { Limiter } from './services/limiter';
import type { PipelineDeps } from './services/pipeline';
import { workRootOf } from './services/work-dirs';
import type { QueueSettings } from './services/queue';
import { TranscriptionWorker, type JobDeps, type WorkerOptions } from './services/worker';
import { diarization } from './diarization';
import { audioStorage } from './services/audio-encryption';

export function queueSettings(config: TranscriptionConfig): QueueSettings {
  return {
    leaseMs: config.TRANSCRIPTION_LEASE_MS,
    maxAttempts: config.TRANSCRIPTION_MAX_ATTEMPTS,
    retryBaseMs: config.TRANSCRIPTION_RETRY_BASE_MS,
    companyConcurrency: config.TRANSCRIPTION_COMPANY_CONCURRENCY,
  };
}

/** What the pipeline needs, built from the same environment the file service reads (storage). */
export function pipelineDeps(
  config: TranscriptionConfig,
  whisper: WhisperHost = whisperHost(config),
): PipelineDeps & { workRoot: string } {
  return {
    workRoot: workRootOf(config),
    storage: createStorage(config),
    engine: createEngine(config, whisper),
    ffmpeg: {
      ffmpeg: config.FFMPEG_PATH,
      ffprobe: config.FFPROBE_PATH,
      probeTimeoutMs: config.FFPROBE_TIMEOUT_MS,
      decodeTimeoutMs: config.FFMPEG_DECODE_TIMEOUT_MS,
      maxSeconds: config.TRANSCRIPTION_MAX_AUDIO_SECONDS,
    },
    decoders: new Limiter(config.TRANSCRIPTION_CONCURRENCY),
  };
}

/**
 * The pipeline plus the per-job choice of engine, so a change applies to the next job without a
 * restart: the default downloaded Whisper model when one is ready; else the speech-to-text model
 * of AI Configuration (its default, else the oldest enabled one); else TRANSCRIPTION_ENGINE (with
 * `whisper`, the downloaded model WHISPER_MODEL). The worker's one whisper thread serves every job.
 */
export function jobDeps(ctx: ServiceContext<TranscriptionConfig>): JobDeps {
  const catalogue = aiCatalogue(ctx);
  const whisper = whisperHost(ctx.config, (message) => ctx.logger.warn(message));
  const offline = (model: ReadyModel | null, missing?: string) => ({
    engine: new WhisperEngine(whisper, model, missing),
    modelId: null,
    model: model?.name ?? null,
  });
  // One-channel recordings are told apart by voice once both diarization models are ready.
  const diarizer = diarization(ctx.db, {
    threshold: ctx.config.DIARIZATION_THRESHOLD,
    threads: ctx.config.DIARIZATION_THREADS,
  });
  return {
    ...pipelineDeps(ctx.config, whisper),
    // Encrypted recordings decrypt through the file service's key ring.
    storage: audioStorage(ctx),
    diarize: diarizer.diarize,
    close: async () => {
      await Promise.all([whisper.close(), diarizer.close()]);
    },
    async chosenEngine() {
      const local = await defaultWhisperModel(ctx.db);
      if (local) return offline(local);
      let model;
      try {
        model = await catalogue.resolve('speech-to-text');
      } catch (error) {
        throw new JobError((error as Error).message, false);
      }
      if (model) return { engine: engineForModel(model, ctx.config), modelId: model.modelId, model: model.model };
      if (ctx.config.TRANSCRIPTION_ENGINE !== 'whisper') return null;
      const named = ctx.config.WHISPER_MODEL;
      return offline(named ? await readyModel(ctx.db, named) : null, whisperModelMissing(named));
    },
  };
}

/** The engine and configured model a job queued now will be transcribed with (`db`: the caller's transaction). */
export type EngineChoice = (db: Db) => Promise<{ engine: string; modelId: string | null }>;

/**
 * The same choice as jobDeps makes when the job runs (the default Whisper model, else AI
 * Configuration's speech-to-text model, its default else the oldest, else TRANSCRIPTION_ENGINE),
 * made when it is queued without fetching any key, so the queued event says what credits to
 * reserve at which price. Whisper runs on this machine and is priced as an engine (like
 * PocketSphinx), whichever model it uses. A choice changed in between is charged by what
 * transcript.completed names.
 */
export function engineChoice(ctx: ServiceContext<TranscriptionConfig>): EngineChoice {
  const catalogue = aiCatalogue(ctx);
  return async (db) => {
    if (await defaultWhisperModel(db)) return { engine: 'whisper' satisfies EngineName, modelId: null };
    const [model] = await catalogue.listModels('speech-to-text', db);
    return model
      ? { engine: 'openai' satisfies EngineName, modelId: model._id }
      : { engine: ctx.config.TRANSCRIPTION_ENGINE, modelId: null };
  };
}

/** A worker for this context; `overrides` lets a caller (a test, the stand-alone runner) set its id and limits. */
export function createWorker(
  ctx: ServiceContext<TranscriptionConfig>,
  overrides: Partial<WorkerOptions> = {},
): TranscriptionWorker {
  const config = ctx.config;
  return new TranscriptionWorker(ctx, jobDeps(ctx), {
    ...queueSettings(config),
    concurrency: config.TRANSCRIPTION_CONCURRENCY,
    pollMs: config.TRANSCRIPTION_POLL_MS,
    drainMs: config.TRANSCRIPTION_DRAIN_MS,
    ...overrides,
  });
}
