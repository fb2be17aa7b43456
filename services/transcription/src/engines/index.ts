import type { TranscriptionSettings } from '../config';
import { OpenAiEngine } from './openai';
import { PocketSphinxEngine } from './pocketsphinx';
import type { SpeechEngine } from './types';

export type { RecognisedWord, SpeechEngine } from './types';

/** The engine the configuration names (TRANSCRIPTION_ENGINE). */
export function createEngine(settings: TranscriptionSettings): SpeechEngine {
  if (settings.TRANSCRIPTION_ENGINE === 'openai') {
    return new OpenAiEngine({
      baseURL: settings.OPENAI_BASE_URL,
      apiKey: settings.OPENAI_API_KEY,
      model: settings.TRANSCRIPTION_MODEL,
      maxUploadBytes: settings.OPENAI_MAX_UPLOAD_BYTES,
      timeoutMs: settings.OPENAI_TIMEOUT_MS,
    });
  }
  return new PocketSphinxEngine({
    binary: settings.POCKETSPHINX_PATH,
    hmm: settings.POCKETSPHINX_HMM,
    lm: settings.POCKETSPHINX_LM,
    dict: settings.POCKETSPHINX_DICT,
    chunkSeconds: settings.TRANSCRIPTION_CHUNK_SECONDS,
  });
}
