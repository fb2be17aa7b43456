import { loadOpenAI, outboundPolicy, providerClient, type ResolvedModel } from '@earshot/ai';
import type OpenAI from 'openai';
import type { TranscriptionSettings } from '../config';
import { OpenAiEngine } from './openai';
import { PocketSphinxEngine } from './pocketsphinx';
import type { SpeechEngine } from './types';
import { WhisperEngine, WhisperHost } from './whisper';

export type { RecognisedWord, Recognition, SpeechEngine } from './types';
export { WhisperEngine, WhisperHost } from './whisper';

/**
 * A worker's whisper.cpp thread, as the configuration sets it (started at its first piece); `warn`
 * hears why its words would come without confidence.
 */
export function whisperHost(settings: TranscriptionSettings, warn?: (message: string) => void): WhisperHost {
  return new WhisperHost({
    variant: settings.WHISPER_VARIANT,
    threads: settings.WHISPER_THREADS,
    timeoutMs: settings.WHISPER_TIMEOUT_MS,
    warn,
  });
}

/**
 * The engine the configuration names (TRANSCRIPTION_ENGINE). For `whisper`, WHISPER_MODEL is a
 * downloaded model found per job (runtime.ts); this one stands for it where no database is asked.
 */
export function createEngine(settings: TranscriptionSettings, host: WhisperHost): SpeechEngine {
  if (settings.TRANSCRIPTION_ENGINE === 'whisper')
    return new WhisperEngine(host, null, whisperModelMissing(settings.WHISPER_MODEL));
  if (settings.TRANSCRIPTION_ENGINE === 'openai') {
    const { OPENAI_API_KEY: apiKey } = settings;
    return new OpenAiEngine({
      client: apiKey ? onceMade(apiKey, settings) : null,
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

/** The client for OPENAI_API_KEY, made at the first job that needs it and kept for the ones after. */
function onceMade(apiKey: string, settings: TranscriptionSettings): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () =>
    (client ??= loadOpenAI().then(
      ({ OpenAI }) =>
        new OpenAI({ apiKey, baseURL: settings.OPENAI_BASE_URL, maxRetries: 0, timeout: settings.OPENAI_TIMEOUT_MS }),
    ));
}

/** Why TRANSCRIPTION_ENGINE=whisper has no model to use. */
export function whisperModelMissing(name: string | undefined): string {
  return name
    ? `The Whisper model ${name} (WHISPER_MODEL) is not downloaded on this server: download it on AI Configuration or with npm run models -- add ${name}`
    : 'TRANSCRIPTION_ENGINE=whisper needs WHISPER_MODEL, the name of a downloaded Whisper model';
}

/**
 * The engine for a speech-to-text model chosen in AI Configuration: its provider through the
 * outbound address checks. One answer covers a whole piece (up to the upload limit, minutes of
 * audio), so it may take the longer of the two timeouts.
 */
export function engineForModel(model: ResolvedModel, settings: TranscriptionSettings): SpeechEngine {
  const timeout = Math.max(settings.AI_TIMEOUT_MS, settings.OPENAI_TIMEOUT_MS);
  return new OpenAiEngine({
    client: () => providerClient(model.endpoint, outboundPolicy(settings), timeout),
    model: model.model,
    maxUploadBytes: settings.OPENAI_MAX_UPLOAD_BYTES,
  });
}
