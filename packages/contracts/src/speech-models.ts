import { z } from 'zod';

/*
 * Speech models the transcription service downloads and runs on the machine: whisper.cpp
 * ggml models and sherpa-onnx's two speaker-diarization models. HOST_ADMIN manages them from AI
 * Configuration (`/api/ai/speech-models`) and from `npm run models`.
 */

export const SPEECH_MODEL_KINDS = ['whisper', 'diarization'] as const;
export type SpeechModelKind = (typeof SPEECH_MODEL_KINDS)[number];
export const SPEECH_MODEL_LANGUAGES = ['en', 'multilingual'] as const;
export type SpeechModelLanguages = (typeof SPEECH_MODEL_LANGUAGES)[number];
export const SPEECH_MODEL_STATUSES = ['absent', 'downloading', 'ready', 'failed'] as const;
export type SpeechModelStatus = (typeof SPEECH_MODEL_STATUSES)[number];

/** The names of the two diarization models the diarizer needs together. */
export const DIARIZATION_SEGMENTATION = 'diarization-segmentation';
export const DIARIZATION_EMBEDDING = 'diarization-embedding';

/** A model name: also a path segment and part of a file name, so nothing that could leave the folder. */
export const SPEECH_MODEL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const SpeechModelEntry = z.object({
  name: z.string().regex(SPEECH_MODEL_NAME, 'lowercase letters, digits, ".", "_" or "-" (at most 64)'),
  kind: z.enum(SPEECH_MODEL_KINDS),
  /** The file's name on disk, and under the download address. */
  file: z
    .string()
    .regex(FILE_NAME, 'a plain file name')
    .refine((f) => !f.endsWith('.part'), 'must not end with .part'),
  languages: z.enum(SPEECH_MODEL_LANGUAGES),
  /** Expected size, for the disk-space check and the progress bar before the server answers; the server's length wins. */
  sizeBytes: z.number().int().positive(),
  /**
   * The file's SHA-256 (lowercase hex), checked before the file is used. `null`: no published hash
   * is known, so the first complete download's hash is recorded and shown (trust on first use).
   */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')
    .nullable(),
  /** An absolute http(s) address of the file; without it, `<SPEECH_MODELS_URL>/<file>`. */
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'http or https only')
    .optional(),
});
export type SpeechModelEntry = z.infer<typeof SpeechModelEntry>;

/** A replacement catalogue (`SPEECH_MODELS_CATALOGUE`): at least one model, names unique. */
export const SpeechModelCatalogue = z
  .array(SpeechModelEntry)
  .min(1)
  .max(200)
  .refine((list) => new Set(list.map((m) => m.name)).size === list.length, 'model names must be unique')
  .refine((list) => new Set(list.map((m) => m.file)).size === list.length, 'file names must be unique');

const MIB = 1024 * 1024;
const HF_WHISPER = (name: string, sizeBytes: number, sha256: string): SpeechModelEntry => ({
  name,
  kind: 'whisper',
  file: `ggml-${name}.bin`,
  languages: name.endsWith('.en') ? 'en' : 'multilingual',
  sizeBytes,
  sha256,
});

/**
 * The default catalogue. Hashes and sizes (see the transcription README, "Speech models"):
 * - tiny and large-v3-turbo: SHA-256 from ggerganov/whisper.cpp's own Hugging Face pages; large-v3-turbo's
 *   and base's byte counts from Git LFS pointers.
 * - tiny.en, base, base.en, small, small.en, medium, medium.en: SHA-256 only from mirror pages
 *   ("Duplicate from ggerganov/whisper.cpp"); their byte counts except base's are remembered, not
 *   checked. A wrong size only misjudges the disk check and the bar until the server says the
 *   length; a wrong hash fails the download (the file is removed), never uses a bad file.
 * - the diarization models: the embedding's size and SHA-256 from a byte-for-byte mirror's notice
 *   (onemira/eres2net-base-3dspeaker-onnx); the segmentation model has no published hash we found
 *   (its size is the docs' "5.7M"), so its first download's hash is recorded.
 * An operator pins others with SPEECH_MODELS_CATALOGUE.
 */
export const SPEECH_MODEL_CATALOGUE: readonly SpeechModelEntry[] = [
  HF_WHISPER('tiny', 77_691_713, 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21'),
  HF_WHISPER('tiny.en', 77_704_715, '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f'),
  HF_WHISPER('base', 147_951_465, '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe'),
  HF_WHISPER('base.en', 147_964_211, 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002'),
  HF_WHISPER('small', 487_601_967, '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b'),
  HF_WHISPER('small.en', 487_614_201, 'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d'),
  HF_WHISPER('medium', 1_533_763_059, '6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208'),
  HF_WHISPER('medium.en', 1_533_774_781, 'cc37e93478338ec7700281a7ac30a10128929eb8f427dda2e865faa8f6da4356'),
  HF_WHISPER('large-v3-turbo', 1_624_555_275, '1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69'),
  {
    name: DIARIZATION_SEGMENTATION,
    kind: 'diarization',
    file: 'sherpa-onnx-pyannote-segmentation-3-0.onnx',
    languages: 'multilingual',
    sizeBytes: Math.round(5.7 * MIB),
    sha256: null,
    url: 'https://huggingface.co/csukuangfj/sherpa-onnx-pyannote-segmentation-3-0/resolve/main/model.onnx',
  },
  {
    name: DIARIZATION_EMBEDDING,
    kind: 'diarization',
    file: '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
    languages: 'multilingual',
    sizeBytes: 39_593_761,
    sha256: '1a331345f04805badbb495c775a6ddffcdd1a732567d5ec8b3d5749e3c7a5e4b',
    url: 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models/3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
  },
];

/** One model as `GET /api/ai/speech-models` lists it. `progress` is 0–1 (1 when ready). */
export const SpeechModelDto = z.object({
  name: z.string(),
  kind: z.enum(SPEECH_MODEL_KINDS),
  languages: z.enum(SPEECH_MODEL_LANGUAGES),
  sizeBytes: z.number().int(),
  status: z.enum(SPEECH_MODEL_STATUSES),
  progress: z.number().min(0).max(1),
  /** The pinned hash, or the recorded one of an unpinned model once downloaded; null before. */
  sha256: z.string().nullable(),
  isDefault: z.boolean(),
  /** Why the last download failed (status failed), in words an operator can act on. */
  error: z.string().nullable(),
});
export type SpeechModelDto = z.infer<typeof SpeechModelDto>;

export const SpeechModelList = z.array(SpeechModelDto);
export type SpeechModelList = z.infer<typeof SpeechModelList>;

/**
 * What the installed speech models mean for a recording, for every role (`GET
 * /api/ai/speech-models/readiness`): a default Whisper model transcribes it, and both diarization
 * models separate its speakers (without them one speaker is found).
 */
export const SpeechReadinessDto = z.object({
  whisper: z.boolean(),
  speakerSeparation: z.boolean(),
});
export type SpeechReadinessDto = z.infer<typeof SpeechReadinessDto>;

export const SpeechModelParams = z
  .object({
    name: z.string().regex(SPEECH_MODEL_NAME, 'must be a model name from the list'),
  })
  .strict();
export type SpeechModelParams = z.infer<typeof SpeechModelParams>;

/** The error code of a download refused for want of disk space (HTTP 507). */
export const SPEECH_MODEL_NO_SPACE = 'INSUFFICIENT_STORAGE';

export const SPEECH_MODEL_MESSAGES = {
  notFound: (name: string) => `No speech model named "${name}"`,
  notReady: (name: string) => `The speech model "${name}" is not downloaded yet: download it, then make it the default`,
  notWhisper: (name: string) => `"${name}" is a speaker-diarization model: only a Whisper model can be the default`,
  alreadyDownloading: (name: string) => `The speech model "${name}" is already downloading`,
  alreadyReady: (name: string) => `The speech model "${name}" is already downloaded`,
  notDownloading: (name: string) => `The speech model "${name}" is not downloading`,
} as const;
