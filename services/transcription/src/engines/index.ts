import OpenAI from 'openai';
import { outboundPolicy, providerClient, type ResolvedModel } from '@earshot/ai';
import type { TranscriptionSettings } from '../config';
import { OpenAiEngine } from './openai';
import { PocketSphinxEngine } from './pocketsphinx';
import type { SpeechEngine } from './types';

export type { RecognisedWord, SpeechEngine } from './types';

/** The engine the configuration names (TRANSCRIPTION_ENGINE). */
export function createEngine(settings: TranscriptionSettings): SpeechEngine {
  if (settings.TRANSCRIPTION_ENGINE === 'openai') {
    const { OPENAI_API_KEY: apiKey } = settings;
    return new OpenAiEngine({
      client: apiKey ? new OpenAI({ apiKey, baseURL: settings.OPENAI_BASE_URL, maxRetries: 0, timeout: settings.OPENAI_TIMEOUT_MS }) : null,
      unconfigured: 'OpenAI-compatible transcription is not configured on this server (OPENAI_API_KEY is not set)',
      model: settings.TRANSCRIPTION_MODEL,
      maxUploadBytes: settings.OPENAI_MAX_UPLOAD_BYTES,
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

/**
 * The engine for a speech-to-text model chosen in AI Configuration: its provider through the
 * outbound address checks. One answer covers a whole piece (up to the upload limit, minutes of
 * audio), so it may take the longer of the two timeouts.
 */
export function engineForModel(model: ResolvedModel, settings: TranscriptionSettings): SpeechEngine {
  const timeout = Math.max(settings.AI_TIMEOUT_MS, settings.OPENAI_TIMEOUT_MS);
  return new OpenAiEngine({
    client: providerClient(model.endpoint, outboundPolicy(settings), timeout),
    model: model.model,
    maxUploadBytes: settings.OPENAI_MAX_UPLOAD_BYTES,
  });
}
