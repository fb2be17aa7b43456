import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { SPEECH_MODEL_CATALOGUE, SpeechModelCatalogue, type SpeechModelEntry } from '@earshot/contracts';

export const DEFAULT_SPEECH_MODELS_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

/** A download address: checked at start, so a typo stops the service instead of the first download. */
export const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// address')
  .transform((u) => u.replace(/\/+$/, ''));

/**
 * SPEECH_MODELS_CATALOGUE: a JSON file replacing the built-in catalogue (private or pinned models),
 * read and validated at start: an unreadable or invalid file stops the service with the reason.
 */
export const catalogueFile = z
  .string()
  .min(1)
  .transform((path, ctx): SpeechModelEntry[] => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `cannot read the catalogue ${path}: ${error instanceof Error ? error.message : String(error)}`,
      });
      return z.NEVER;
    }
    const parsed = SpeechModelCatalogue.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `invalid catalogue ${path}: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`,
      });
      return z.NEVER;
    }
    return parsed.data;
  });

export interface SpeechModelSettings {
  DATA_DIR: string;
  SPEECH_MODELS_URL: string;
  SPEECH_DIARIZATION_URL?: string;
  SPEECH_MODELS_DIR?: string;
  SPEECH_MODELS_CATALOGUE?: SpeechModelEntry[];
}

/** Where the model files live: SPEECH_MODELS_DIR, else `DATA_DIR/models` (absolute, so rows stay valid). */
export function modelsDir(config: SpeechModelSettings): string {
  return resolve(config.SPEECH_MODELS_DIR ?? join(config.DATA_DIR, 'models'));
}

export function catalogueOf(config: SpeechModelSettings): readonly SpeechModelEntry[] {
  return config.SPEECH_MODELS_CATALOGUE ?? SPEECH_MODEL_CATALOGUE;
}

/**
 * Where a model is fetched from. SPEECH_MODELS_URL serves the Whisper files; an entry with its own
 * address (the diarization models) is fetched from SPEECH_DIARIZATION_URL when set (a mirror), else
 * from that address.
 */
export function downloadUrl(config: SpeechModelSettings, entry: SpeechModelEntry): string {
  const file = encodeURIComponent(entry.file);
  if (!entry.url) return `${config.SPEECH_MODELS_URL}/${file}`;
  return config.SPEECH_DIARIZATION_URL ? `${config.SPEECH_DIARIZATION_URL}/${file}` : entry.url;
}

/** The variable that points `entry`'s download at a mirror, named when its host cannot be reached. */
export const mirrorVariable = (entry: SpeechModelEntry | undefined) =>
  entry?.url ? 'SPEECH_DIARIZATION_URL' : 'SPEECH_MODELS_URL';

export const modelPath = (config: SpeechModelSettings, entry: SpeechModelEntry) => join(modelsDir(config), entry.file);
