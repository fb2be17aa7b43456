/** A word as an engine heard it, with times in seconds from the start of the audio it was given. */
export interface RecognisedWord {
  text: string;
  start: number;
  end: number;
  /** How sure the engine is of the word, 0–1, when it says (PocketSphinx's posterior; whisper gives none). */
  confidence?: number;
  /** The speaker an OpenAI-compatible provider put on the word (its own label: "A", "SPEAKER_00", a name). */
  speaker?: string;
}

/** What an engine heard in one piece: its words and, when it says, the language it heard (a code such as `fr`). */
export interface Recognition {
  words: RecognisedWord[];
  language?: string;
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
  /**
   * The language to recognise, from the one asked for (a code, or `auto`: detect it), after
   * check(). An engine that cannot recognise that language throws a JobError saying what to do.
   */
  recognitionLanguage(requested: string): string;
  transcribe(wavPath: string, signal?: AbortSignal, language?: string): Promise<Recognition>;
}
