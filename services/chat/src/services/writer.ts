import type { FileCitationDto, TranscriptCitationDto, UsageDto } from '@earshot/contracts';
import type { ContextMode } from './context';

export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ReplyInput {
  question: string;
  passages: TranscriptCitationDto[];
  /** How the passages were chosen (see ContextMode). */
  mode: ContextMode;
  /** The recording the question is about, when it is about one; `total` is its number of segments. */
  recording: { fileName: string; total: number } | null;
  /** The conversation so far, oldest first, ending with the question. */
  history: HistoryMessage[];
  /** Whether the search covered every company (a platform administrator without one). */
  allCompanies: boolean;
  /**
   * A conversation with a custom GPT: its name and instructions, and the passages of its files
   * (numbered first; transcript passages, when it may search them, follow on).
   */
  gpt?: {
    id: string;
    name: string;
    instructions: string;
    knowledge: FileCitationDto[];
    /** Each passage's whole text (the citation quotes its start). */ texts: string[];
  };
}

/** Who writes a reply: the built-in search assistant or a configured model. */
export interface ReplyWriter {
  /** What the stored message names as its author ('built-in' or the provider's model name). */
  readonly model: string;
  readonly providerId: string | null;
  /** The AI configuration model (`_id`) that writes, for its price; null for the built-in assistant. */
  readonly modelId: string | null;
  readonly builtIn: boolean;
  /** The model's context window in tokens, when known (bounds the history it is given). */
  readonly contextSize: number | null;
  /** Whether `write` uses the conversation's earlier messages. */
  readonly usesHistory: boolean;
  /** The reply in pieces as they come; returns the token usage reported (null: none). */
  write(input: ReplyInput, signal: AbortSignal): AsyncGenerator<string, UsageDto | null>;
  /** A failure in words for the person (stored with the failed reply). */
  describeError(error: unknown): string;
}
