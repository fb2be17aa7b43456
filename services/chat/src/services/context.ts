import type { TranscriptCitationDto } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import * as recordingsRepo from '../repositories/recordings';
import type { Recording, RecordingScope } from '../repositories/recordings';
import type { Passage } from '../repositories/segments';
import { clock, toCitation } from './passages';
import type { TranscriptCopy } from './transcripts';

/**
 * How the passages given with a question were chosen:
 * - `search`: the best matches of a full-text search (over the caller's transcripts, or the recordings a question names);
 * - `whole`: one recording's whole transcript, in order (it fits the model's context);
 * - `excerpts`: one recording too long for the model: the segments most relevant to the question and a spread of the rest, in order;
 * - `overview`: the built-in assistant asked to summarise one recording, or finding nothing in it that matches: its opening and longest passages.
 */
export type ContextMode = 'search' | 'whole' | 'excerpts' | 'overview';

export interface TurnContext {
  mode: ContextMode;
  passages: TranscriptCitationDto[];
  /** The recording the question is about, when it is about one. */
  recording: Recording | null;
  /** Segments the recording has (the passages may be fewer). */
  total: number;
}

/** "the last call", "the most recent recording"… */
const LAST_CALL = /\b(?:last|latest|newest|most\s+recent)\s+(?:call|recording|meeting|conversation|transcript)\b/i;
/** What asks for an overview rather than for a fact: the built-in assistant cannot write one. */
const OVERVIEW =
  /\b(?:summar\w*|overview|recap|gist|outline|key\s+points|main\s+points|what\s+(?:is|was)\s+(?:it|this|that|the\s+\w+)\s+about)\b/i;
/** The shortest client name recognised in a question. */
const MIN_CLIENT_NAME = 3;
const OVERVIEW_LONGEST = 3;
/** About four characters a token (the estimate the history budget uses too). */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Whether `name` occurs in `text` as words of their own, not inside a longer word. */
export function mentions(text: string, name: string): boolean {
  const haystack = text.toLowerCase();
  const needle = name.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((!before || !/[\p{L}\p{N}]/u.test(before)) && (!after || !/[\p{L}\p{N}]/u.test(after))) return true;
  }
  return false;
}

export const asksOverview = (question: string) => OVERVIEW.test(question);

/** One segment as a model reads it, numbered. */
export const segmentLine = (p: Pick<TranscriptCitationDto, 'speaker' | 'start' | 'text'>, n: number) =>
  `[${n}] ${p.speaker} at ${clock(p.start)}: ${p.text.replace(/\s+/g, ' ').trim()}`;

/**
 * Which recordings a question is about: the conversation's own (a chat bound to one), the ones it
 * names by file name or client, or "the last call" (the newest completed transcript the caller
 * may see). Empty: the question is about all of the caller's transcripts.
 */
export async function recordingsAsked(
  db: Db,
  question: string,
  scope: RecordingScope,
  bound: Recording | null,
): Promise<Recording[]> {
  if (bound) return [bound];
  const named = (await recordingsRepo.namedIn(db, question, scope, MIN_CLIENT_NAME, 20)).filter((r) =>
    mentions(question, r.named),
  );
  if (named.length > 0) {
    // The longest name wins: "call-2.wav" is meant, not "call.wav" inside it.
    const longest = Math.max(...named.map((r) => r.named.length));
    return named.filter((r) => r.named.length === longest).slice(0, 5);
  }
  if (LAST_CALL.test(question)) {
    const last = await recordingsRepo.latest(db, scope);
    return last ? [last] : [];
  }
  return [];
}

/** The opening segment and the longest ones, in time order: what the built-in assistant can show of a recording. */
export function overviewOf(segments: readonly Passage[]): Passage[] {
  if (segments.length === 0) return [];
  const longest = [...segments.slice(1)]
    .sort((a, b) => b.text.length - a.text.length || a.start - b.start)
    .slice(0, OVERVIEW_LONGEST);
  return [segments[0]!, ...longest].sort((a, b) => a.start - b.start);
}

/**
 * A recording too long for the model: the most relevant segments first, then segments spread
 * evenly over the rest of it, as many as the budget holds, given back in time order.
 */
export function excerptsOf(
  segments: readonly Passage[],
  relevant: readonly Passage[],
  budgetTokens: number,
): Passage[] {
  const key = (p: Passage) => `${p.start}\u0000${p.text}`;
  const chosen = new Map<string, Passage>();
  let used = 0;
  const take = (p: Passage) => {
    if (chosen.has(key(p))) return true;
    const cost = estimateTokens(segmentLine(p, chosen.size + 1)) + 1;
    if (used + cost > budgetTokens) return false;
    chosen.set(key(p), p);
    used += cost;
    return true;
  };
  for (const p of relevant) if (!take(p)) break;
  const rest = segments.filter((p) => !chosen.has(key(p)));
  const average =
    rest.reduce((n, p) => n + estimateTokens(segmentLine(p, chosen.size + 1)) + 1, 0) / Math.max(1, rest.length);
  const room = Math.min(rest.length, Math.floor((budgetTokens - used) / Math.max(1, average)));
  for (let i = 0; i < room; i++) take(rest[Math.floor((i * rest.length) / room)]!);
  return [...chosen.values()].sort((a, b) => a.start - b.start);
}

export interface GatherOptions {
  question: string;
  /** The scope of a general search: the caller's company (null: every company) and, in a b2c company, the caller's own recordings. */
  scope: RecordingScope;
  bound: Recording | null;
  builtIn: boolean;
  /** Passages of a search (CHAT_PASSAGES). */
  passages: number;
  /** Tokens the transcript may take of the model's context. */
  budgetTokens: number;
  /** The transcript copy, read opened (a company's text may be stored sealed). */
  transcripts: Pick<TranscriptCopy, 'search' | 'ofFile'>;
}

/** The passages that go with a question, and how they were chosen. */
export async function gatherContext(db: Db, options: GatherOptions): Promise<TurnContext> {
  const { question, scope, bound, builtIn, passages, budgetTokens, transcripts } = options;
  const asked = await recordingsAsked(db, question, scope, bound);
  const result = (
    mode: ContextMode,
    found: readonly Passage[],
    recording: Recording | null = null,
    total = found.length,
  ): TurnContext => ({ mode, passages: found.map(toCitation), recording, total });
  if (asked.length !== 1) {
    const searched = asked.length > 1 ? { ...scope, fileIds: asked.map((r) => r.fileId) } : scope;
    return result('search', await transcripts.search(db, question, searched, passages));
  }
  const recording = asked[0]!;
  const segments = await transcripts.ofFile(db, recording.fileId);
  if (builtIn) {
    const found = asksOverview(question)
      ? []
      : await transcripts.search(db, question, { companyId: null, fileIds: [recording.fileId] }, passages);
    // Asked for a summary, or nothing matched: what it can show of the recording is how it goes.
    if (found.length === 0) return result('overview', overviewOf(segments), recording, segments.length);
    return result('search', found, recording, segments.length);
  }
  const whole = estimateTokens(segments.map((p, i) => segmentLine(p, i + 1)).join('\n'));
  if (whole <= budgetTokens) return result('whole', segments, recording);
  const relevant = await transcripts.search(db, question, { companyId: null, fileIds: [recording.fileId] }, 200);
  return result('excerpts', excerptsOf(segments, relevant, budgetTokens), recording, segments.length);
}

/**
 * The segments a model's answer cites as [n], in the order it first cites them. Given a whole
 * transcript, only those become the reply's sources (not the hundreds it was given).
 */
export function citedIn(answer: string, passages: readonly TranscriptCitationDto[]): TranscriptCitationDto[] {
  const cited: TranscriptCitationDto[] = [];
  const seen = new Set<number>();
  for (const match of answer.matchAll(/\[(\d{1,5})\]/g)) {
    const n = Number(match[1]);
    const passage = passages[n - 1];
    if (passage && !seen.has(n)) {
      seen.add(n);
      cited.push(passage);
    }
  }
  return cited;
}
