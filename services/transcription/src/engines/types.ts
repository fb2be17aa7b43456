/** A word as an engine heard it, with times in seconds from the start of the audio it was given. */
export interface RecognisedWord {
  text: string;
  start: number;
  end: number;
  /** How sure the engine is of the word, 0–1, when it says (PocketSphinx's posterior). */
  confidence?: number;
}

/**
 * The port every speech-to-text engine implements. The pipeline prepares 16 kHz mono 16-bit WAV
 * pieces of at most `maxChunkSeconds` (cut at silences) and corrects the offsets; an engine only
 * turns one piece into words. An engine that cannot work throws a JobError with the reason.
 */
export interface SpeechEngine {
  readonly name: string;
  maxChunkSeconds(): number;
  /** Throws a JobError when the engine is missing or misconfigured (before any audio is decoded). */
  check(signal?: AbortSignal): Promise<void>;
  transcribe(wavPath: string, signal?: AbortSignal): Promise<RecognisedWord[]>;
}
