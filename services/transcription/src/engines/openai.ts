import { createReadStream } from 'node:fs';
import type OpenAI from 'openai';
import { BlockedUrlError, loadOpenAI, loadedOpenAI } from '@earshot/ai';
import { speakerOfEach } from '../diarization/assign';
import { applyRuns, idSource, tokensOf } from '../services/edits/retime';
import { JobError } from '../services/job-error';
import type { RecognisedWord, Recognition, SpeechEngine } from './types';

export interface OpenAiEngineOptions {
  /**
   * Makes (or finds) the SDK client at the first job, so the SDK is loaded only where a job uses it;
   * null when no provider is set up: every job then fails with `unconfigured` as its reason.
   */
  client: (() => Promise<OpenAI>) | null;
  unconfigured?: string;
  model: string;
  maxUploadBytes: number;
}

/** 16 kHz mono 16-bit WAV: bytes per second of audio. */
const WAV_BYTES_PER_SECOND = 32_000;

interface VerboseTranscription {
  text?: string;
  /** OpenAI answers a language's English name ("french"); other servers may answer its code. */
  language?: string;
  /** `probability` (0-1) and `speaker` come from speaches (faster-whisper); OpenAI's words have neither. */
  words?: { word: string; start: number; end: number; probability?: number; speaker?: string | null }[];
  segments?: { start: number; end: number; text: string; speaker?: string | null }[];
}

/** OpenAI's `diarized_json`: speaker-labelled segments ("A", "B" or a known speaker's name), no word times. */
interface DiarizedTranscription {
  text?: string;
  segments?: { start: number; end: number; text: string; speaker?: string | null }[];
}

/**
 * Models that give speakers only as `diarized_json` and refuse `verbose_json` (OpenAI's
 * gpt-4o-transcribe-diarize). AI Configuration keeps no capabilities per model, so the name says.
 */
export const diarizingModel = (model: string): boolean => /diarize/i.test(model);

const label = (speaker: unknown): string | undefined =>
  typeof speaker === 'string' && speaker.trim() ? speaker.trim() : undefined;

/**
 * Verbose JSON's words, with the provider's confidence and speaker when it gives them. A word
 * without a speaker of its own takes the speaker of the segment that overlaps it most.
 */
export function verboseWords(answer: VerboseTranscription): RecognisedWord[] {
  const words: RecognisedWord[] = (answer.words ?? [])
    .map((w) => {
      const probability = Number(w.probability);
      const speaker = label(w.speaker);
      return {
        text: String(w.word ?? '').trim(),
        start: Number(w.start),
        end: Number(w.end),
        ...(w.probability !== undefined && w.probability !== null && probability >= 0 && probability <= 1
          ? { confidence: probability }
          : {}),
        ...(speaker ? { speaker } : {}),
      };
    })
    .filter((w) => w.text && Number.isFinite(w.start) && Number.isFinite(w.end));
  const turns = (answer.segments ?? []).flatMap((s) => {
    const speaker = label(s.speaker);
    return speaker && Number.isFinite(Number(s.start)) && Number.isFinite(Number(s.end))
      ? [{ start: Number(s.start), end: Number(s.end), speaker }]
      : [];
  });
  if (!turns.length) return words;
  const guessed = speakerOfEach(words, turns);
  return words.map((w, i) => (w.speaker ? w : { ...w, speaker: guessed[i]! }));
}

/**
 * Diarized JSON's segments as words: each segment's words share its time in proportion to their
 * length in characters (the rule of retyped text in the editor), and carry its speaker.
 */
export function diarizedWords(answer: DiarizedTranscription): RecognisedWord[] {
  const ids = idSource('provider');
  return (answer.segments ?? []).flatMap((s) => {
    const start = Number(s.start);
    const end = Number(s.end);
    if (!Number.isFinite(start) || !Number.isFinite(end)) return [];
    const speaker = label(s.speaker);
    const spread = applyRuns(
      { _id: '', speakerId: '', start, end: Math.max(start, end), text: '', words: [] },
      [{ from: 0, to: 0, tokens: tokensOf(String(s.text ?? '')) }],
      ids,
    );
    return spread.map((w) => ({ text: w.text, start: w.start, end: w.end, ...(speaker ? { speaker } : {}) }));
  });
}

/** Whisper's names of the console's languages and a few neighbours; a code passes as it is. */
const LANGUAGE_CODES: Record<string, string> = {
  english: 'en',
  french: 'fr',
  estonian: 'et',
  latvian: 'lv',
  lithuanian: 'lt',
  finnish: 'fi',
  russian: 'ru',
  german: 'de',
  spanish: 'es',
  swedish: 'sv',
};

/** The language a provider says it heard, as a code; undefined when it said none or a name we do not know. */
export function languageCode(said: string | undefined): string | undefined {
  const value = said?.trim().toLowerCase();
  if (!value) return undefined;
  return /^[a-z]{2,3}$/.test(value) ? value : LANGUAGE_CODES[value];
}

/** Turns provider errors into reasons a person can act on; busy or unreachable providers are retried. */
export function providerError(error: unknown): unknown {
  const { APIConnectionError, APIError, APIUserAbortError } = loadedOpenAI() ?? {};
  if (APIUserAbortError && error instanceof APIUserAbortError) return error;
  const cause = (error as { cause?: unknown })?.cause;
  // A refused address (link-local, or private without AI_ALLOW_PRIVATE_URLS) will not change by retrying.
  if (cause instanceof BlockedUrlError)
    return new JobError(`The transcription provider's address was refused: ${cause.message}`, false);
  if (APIConnectionError && error instanceof APIConnectionError)
    return new JobError(`The transcription provider could not be reached (${error.message})`, true);
  if (APIError && error instanceof APIError) {
    const status = error.status ?? 0;
    const said = (error.message || '').replace(/\s+/g, ' ').slice(0, 200);
    if (status === 401 || status === 403)
      return new JobError(`The transcription provider refused the API key (${status})`, false);
    if (status === 404)
      return new JobError(`The transcription provider does not know this model or endpoint (404: ${said})`, false);
    if (status === 429 || status >= 500)
      return new JobError(`The transcription provider is busy or failing (${status}: ${said})`, true);
    return new JobError(`The transcription provider rejected the audio (${status}: ${said})`, false);
  }
  return error;
}

/**
 * Any OpenAI-compatible speech-to-text endpoint (OpenAI, self-hosted Whisper servers) through the
 * `openai` SDK, asking for verbose JSON with word and segment timestamps (speakers and per-word
 * probability where the server adds them), or diarized JSON from a diarizing model. Pieces are
 * sized to stay under the provider's upload limit. Retries are the job queue's business, not the SDK's.
 */
export class OpenAiEngine implements SpeechEngine {
  readonly name = 'openai';
  constructor(private readonly options: OpenAiEngineOptions) {}

  maxChunkSeconds(): number {
    // Leave room for the WAV header and the multipart envelope.
    return Math.max(1, Math.min(1200, Math.floor((this.options.maxUploadBytes - 4096) / WAV_BYTES_PER_SECOND)));
  }

  private configured(): () => Promise<OpenAI> {
    if (!this.options.client)
      throw new JobError(
        this.options.unconfigured ?? 'OpenAI-compatible transcription is not configured on this server',
        false,
      );
    return this.options.client;
  }

  async check(): Promise<void> {
    this.configured();
  }

  recognitionLanguage(requested: string): string {
    return requested;
  }

  async transcribe(wavPath: string, signal?: AbortSignal, language = 'auto'): Promise<Recognition> {
    // Outside the try: an SDK that cannot load fails the job as it is, never as the provider's answer.
    const [client, { toFile }] = await Promise.all([this.configured()(), loadOpenAI()]);
    const diarized = diarizingModel(this.options.model);
    let answer: VerboseTranscription & DiarizedTranscription;
    try {
      const file = await toFile(createReadStream(wavPath), 'audio.wav', { type: 'audio/wav' });
      const common = { file, model: this.options.model, ...(language === 'auto' ? {} : { language }) };
      // chunking_strategy is required above 30 s of audio; diarized JSON has no word timestamps.
      answer = (await (diarized
        ? client.audio.transcriptions.create(
            { ...common, response_format: 'diarized_json', chunking_strategy: 'auto' },
            { signal },
          )
        : client.audio.transcriptions.create(
            { ...common, response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] },
            { signal },
          ))) as unknown as VerboseTranscription & DiarizedTranscription;
    } catch (error) {
      throw providerError(error);
    }
    const words = diarized ? diarizedWords(answer) : verboseWords(answer);
    if (!diarized && words.length === 0 && (answer.text ?? '').trim()) {
      throw new JobError(
        'The transcription provider returned text without word timings (it must support timestamp_granularities=word)',
        false,
      );
    }
    return { words, language: language === 'auto' ? languageCode(answer.language) : language };
  }
}
