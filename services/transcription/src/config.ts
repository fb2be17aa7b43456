import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { aiConfigShape, providerKeysConfigShape, type ProviderKeysConfig } from '@earshot/ai';
import {
  encryptionConfigShape,
  envBoolean,
  storageConfigShape,
  type BaseConfig,
  type EncryptionConfig,
  type StorageConfig,
} from '@earshot/kit';
import { catalogueFile, DEFAULT_SPEECH_MODELS_URL, httpUrl, type SpeechModelSettings } from './models/settings';

export const ENGINES = ['pocketsphinx', 'openai', 'whisper'] as const;
export const WHISPER_VARIANTS = ['cpu', 'vulkan', 'cuda'] as const;
export type WhisperVariant = (typeof WHISPER_VARIANTS)[number];
export type EngineName = (typeof ENGINES)[number];

/** Environment keys of the transcription service (and of its stand-alone workers). */
export const transcriptionConfigShape = {
  ...storageConfigShape,
  /** The master key that wraps each company's data key for transcripts' words. */
  ...encryptionConfigShape,
  /** Provider calls for the speech-to-text model chosen in AI Configuration follow these. */
  ...aiConfigShape,
  /** Where the worker asks for the chosen model's provider key in distributed mode. */
  ...providerKeysConfigShape,
  /** Where the file service listens (distributed mode), for the audio keys of companies with encryption on. */
  FILE_SERVICE_URL: z.string().url().optional(),
  /** Used while no Whisper model is the default and AI Configuration has no enabled speech-to-text model. */
  TRANSCRIPTION_ENGINE: z.enum(ENGINES).default('pocketsphinx'),
  /** The downloaded Whisper model (a catalogue name, e.g. `base`) TRANSCRIPTION_ENGINE=whisper uses. */
  WHISPER_MODEL: z.string().min(1).max(64).optional(),
  /** Which build of the native binding runs whisper.cpp: `cpu` (installed with Earshot), or `vulkan` / `cuda` (installed by the operator). */
  WHISPER_VARIANT: z.enum(WHISPER_VARIANTS).default('cpu'),
  /** CPU threads whisper.cpp uses for one piece (pieces of a worker run one after another on its one model). */
  WHISPER_THREADS: z.coerce.number().int().min(1).max(256).default(Math.max(1, availableParallelism())),
  /** Longest a 30-second piece may take; past it the piece is stopped and the job retried (a guard, not a budget). */
  WHISPER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
  /** Run the job worker inside this process (all-in-one); `false` leaves the work to `npm run worker`. */
  TRANSCRIPTION_WORKER: envBoolean(true),
  /** Jobs one worker runs at once, and decoder processes it runs at once across those jobs. */
  TRANSCRIPTION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Jobs of one company running at once across every worker: the rest of its queue waits while
   * other companies' jobs take the free places.
   */
  TRANSCRIPTION_COMPANY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(2),
  TRANSCRIPTION_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  /** First retry delay; each further retry doubles it (capped at one hour). */
  TRANSCRIPTION_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** How long a claimed job stays a worker's without a heartbeat; heartbeats come every third of it. */
  TRANSCRIPTION_LEASE_MS: z.coerce.number().int().min(300).max(3_600_000).default(60_000),
  /**
   * On stop (SIGTERM: a scale-in, a rollout) a worker claims nothing more and lets its running jobs
   * finish for this long; what is still running then is handed back to the queue for another worker.
   * 0: hand back at once. Keep the platform's grace period (k8s terminationGracePeriodSeconds) above it.
   */
  TRANSCRIPTION_DRAIN_MS: z.coerce.number().int().min(0).max(3_600_000).default(0),
  /** How often an idle worker looks for work (a new upload in this process wakes it at once). */
  TRANSCRIPTION_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
  /** Longest piece of audio the offline engine decodes in one go (split at silences). */
  TRANSCRIPTION_CHUNK_SECONDS: z.coerce.number().min(5).max(600).default(60),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  /** Longest ffprobe may take to read an upload's container (a file built to keep it busy fails). */
  FFPROBE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Longest ffmpeg may take to decode an upload (a file built to keep it busy fails). */
  FFMPEG_DECODE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(6 * 3_600_000)
    .default(15 * 60_000),
  /** Longest recording transcribed; a longer one fails with the reason (it also bounds the decoded audio on disk). */
  TRANSCRIPTION_MAX_AUDIO_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(48 * 3600)
    .default(8 * 3600),
  POCKETSPHINX_PATH: z.string().min(1).default('pocketsphinx_continuous'),
  /** Acoustic model, language model and dictionary; empty = the binary's defaults (Debian's en-us). */
  POCKETSPHINX_HMM: z.string().optional(),
  POCKETSPHINX_LM: z.string().optional(),
  POCKETSPHINX_DICT: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  TRANSCRIPTION_MODEL: z.string().min(1).max(200).default('whisper-1'),
  /** The provider's upload limit (OpenAI: 25 MB); longer audio is split at silences to stay under it. */
  OPENAI_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 ** 3)
    .default(25 * 1000 * 1000),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
  /** Where the Whisper model files are downloaded from (`<url>/ggml-<name>.bin`): a company's own mirror when offline. */
  SPEECH_MODELS_URL: httpUrl.default(DEFAULT_SPEECH_MODELS_URL),
  /** A mirror of the two diarization models' files (`<url>/<file>`); unset: their public addresses. */
  SPEECH_DIARIZATION_URL: httpUrl.optional(),
  /** Where model files are kept; unset: `DATA_DIR/models`. */
  SPEECH_MODELS_DIR: z.string().min(1).optional(),
  /** A JSON file replacing the model catalogue (private models, other pinned hashes). */
  SPEECH_MODELS_CATALOGUE: catalogueFile.optional(),
  /**
   * Threads rendering exports (downloads of transcripts, ZIPs) at once, off the event loop that
   * serves requests; other exports wait their turn by company. Default: half the cores, at least one.
   */
  EXPORT_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, Math.floor(availableParallelism() / 2))),
  /** Exports of one company rendering at once: the rest of its exports wait while other companies' take the threads. */
  EXPORT_COMPANY_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Longest one export (one file, or one ZIP) may take to render; past it the export answers 413. */
  EXPORT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** The JavaScript heap of one export's rendering thread; past it (or resident memory past twice it) the export answers 413. */
  EXPORT_MAX_HEAP_MB: z.coerce.number().int().min(32).max(16_384).default(512),
  /** Speaker diarization of one-channel audio when the upload gave no count: the clustering threshold (smaller: more speakers). */
  DIARIZATION_THRESHOLD: z.coerce.number().min(0.05).max(2).default(0.5),
  /** Threads of each diarization model. */
  DIARIZATION_THREADS: z.coerce.number().int().min(1).max(64).default(1),
};

export interface TranscriptionSettings {
  FILE_SERVICE_URL?: string;
  TRANSCRIPTION_ENGINE: EngineName;
  WHISPER_MODEL?: string;
  WHISPER_VARIANT: WhisperVariant;
  WHISPER_THREADS: number;
  WHISPER_TIMEOUT_MS: number;
  TRANSCRIPTION_WORKER: boolean;
  TRANSCRIPTION_CONCURRENCY: number;
  TRANSCRIPTION_COMPANY_CONCURRENCY: number;
  TRANSCRIPTION_MAX_ATTEMPTS: number;
  TRANSCRIPTION_RETRY_BASE_MS: number;
  TRANSCRIPTION_LEASE_MS: number;
  TRANSCRIPTION_POLL_MS: number;
  TRANSCRIPTION_DRAIN_MS: number;
  TRANSCRIPTION_CHUNK_SECONDS: number;
  FFMPEG_PATH: string;
  FFPROBE_PATH: string;
  FFPROBE_TIMEOUT_MS: number;
  FFMPEG_DECODE_TIMEOUT_MS: number;
  TRANSCRIPTION_MAX_AUDIO_SECONDS: number;
  POCKETSPHINX_PATH: string;
  POCKETSPHINX_HMM?: string;
  POCKETSPHINX_LM?: string;
  POCKETSPHINX_DICT?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  TRANSCRIPTION_MODEL: string;
  OPENAI_MAX_UPLOAD_BYTES: number;
  OPENAI_TIMEOUT_MS: number;
  AI_ALLOW_PRIVATE_URLS: boolean;
  AI_TIMEOUT_MS: number;
  DIARIZATION_THRESHOLD: number;
  DIARIZATION_THREADS: number;
  EXPORT_WORKERS: number;
  EXPORT_COMPANY_CONCURRENCY: number;
  EXPORT_TIMEOUT_MS: number;
  EXPORT_MAX_HEAP_MB: number;
}

export type TranscriptionConfig = BaseConfig &
  StorageConfig &
  EncryptionConfig &
  TranscriptionSettings &
  ProviderKeysConfig &
  SpeechModelSettings;
