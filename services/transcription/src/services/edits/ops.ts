import {
  MAX_WORD_LENGTH,
  speakerName,
  type SpeakerInfo,
  type SpeakerSegment,
  type TranscriptEditKind,
} from '@earshot/contracts';
import { badRequest, conflict, HttpError, notFound } from '@earshot/kit';
import { applyRuns, diffRuns, tokensOf, withWords, type IdSource, type Run } from './retime';

/** What an edit works on: the transcript's speakers and its segments in time order. */
export interface TranscriptState {
  speakers: SpeakerInfo[];
  segments: SpeakerSegment[];
}

/**
 * What one edit changed, and all that undo needs: the segments it touched as they were
 * (`before`) and as they became (`after`, whole; an id of `before` missing here is gone), and the
 * speakers list before and after when it changed. Never the whole transcript.
 */
export interface Change {
  kind: TranscriptEditKind;
  summary: string;
  before: SpeakerSegment[];
  after: SpeakerSegment[];
  speakers?: { before: SpeakerInfo[]; after: SpeakerInfo[] };
}

const quote = (text: string, max = 40) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;

function segmentAt(state: TranscriptState, segmentId: string): number {
  const index = state.segments.findIndex((s) => s._id === segmentId);
  if (index < 0) throw notFound('Segment');
  return index;
}

function speakerOf(state: TranscriptState, speakerId: string): SpeakerInfo {
  const speaker = state.speakers.find((s) => s.id === speakerId);
  if (!speaker) throw notFound('Speaker');
  return speaker;
}

const nameOf = (state: TranscriptState, speakerId: string) => speakerName(speakerId, state.speakers);

/** Every token a word may become: a word stays a word (MAX_WORD_LENGTH, as for a word edit). */
function checkTokens(tokens: readonly string[], field: string): void {
  if (tokens.some((t) => t.length > MAX_WORD_LENGTH))
    throw badRequest(`Invalid ${field}: a word can be at most ${MAX_WORD_LENGTH} characters`, { field });
}

/** A segment with runs applied: null when it changed nothing, `after` empty when every word went. */
function retext(segment: SpeakerSegment, runs: readonly Run[], ids: IdSource): SpeakerSegment[] | null {
  const real = runs.filter(
    (r) => r.to - r.from !== r.tokens.length || r.tokens.some((t, k) => segment.words[r.from + k]!.text.trim() !== t),
  );
  if (real.length === 0) return null;
  const words = applyRuns(segment, real, ids);
  return words.length ? [withWords(segment, words)] : [];
}

/** Renames a speaker: its `label` is its name everywhere. Null when the name is already that. */
export function renameSpeaker(state: TranscriptState, speakerId: string, name: string): Change | null {
  const speaker = speakerOf(state, speakerId);
  if (speaker.label === name) return null;
  const after = state.speakers.map((s) => (s.id === speakerId ? { ...s, label: name } : s));
  return {
    kind: 'speaker_rename',
    summary: `Renamed ${quote(nameOf(state, speakerId))} to ${quote(name)}`,
    before: [],
    after: [],
    speakers: { before: state.speakers, after },
  };
}

/** Every segment of `from` becomes `into`'s, and `from` leaves the speakers list. */
export function mergeSpeakers(state: TranscriptState, from: string, into: string): Change {
  speakerOf(state, from);
  speakerOf(state, into);
  const before = state.segments.filter((s) => s.speakerId === from);
  return {
    kind: 'speaker_merge',
    summary: `Merged ${quote(nameOf(state, from))} into ${quote(nameOf(state, into))}`,
    before,
    after: before.map((s) => ({ ...s, speakerId: into })),
    speakers: { before: state.speakers, after: state.speakers.filter((s) => s.id !== from) },
  };
}

/**
 * Replaces a segment's text: the typed words are diffed against the old ones (see diffRuns and the
 * timing rule of applyRuns). Null when the words are the same.
 */
export function editSegmentText(state: TranscriptState, segmentId: string, text: string, ids: IdSource): Change | null {
  const segment = state.segments[segmentAt(state, segmentId)]!;
  const tokens = tokensOf(text);
  checkTokens(tokens, 'body.text');
  const after = retext(segment, diffRuns(segment.words, tokens), ids);
  if (!after) return null;
  return {
    kind: 'segment_text',
    summary: `Changed ${quote(segment.text)} to ${quote(tokens.join(' '))}`,
    before: [segment],
    after,
  };
}

/** Corrects one word's text (the word keeps its id and times). Null when it is already that. */
export function editWord(state: TranscriptState, segmentId: string, wordId: string, text: string): Change | null {
  const segment = state.segments.find((s) => s._id === segmentId);
  const word = segment?.words.find((w) => w._id === wordId);
  if (!segment || !word) throw notFound('Word');
  if (word.text === text) return null;
  const words = segment.words.map((w) => (w._id === wordId ? { _id: w._id, text, start: w.start, end: w.end } : w));
  return {
    kind: 'word',
    summary: `Changed ${quote(word.text)} to ${quote(text)}`,
    before: [segment],
    after: [withWords(segment, words)],
  };
}

/** The indices of `wordIds` in the segment, which must be one contiguous run of its words. */
function contiguousRun(segment: SpeakerSegment, wordIds: readonly string[]): { from: number; to: number } {
  const positions = [...new Set(wordIds)].map((id) => segment.words.findIndex((w) => w._id === id));
  if (positions.some((p) => p < 0)) throw notFound('Word');
  positions.sort((a, b) => a - b);
  const from = positions[0]!;
  const to = positions[positions.length - 1]! + 1;
  if (to - from !== positions.length)
    throw badRequest('Invalid body.wordIds: the words must follow each other in the segment', {
      field: 'body.wordIds',
    });
  return { from, to };
}

/**
 * Gives a segment, or a contiguous run of its words, to another speaker. A run inside the segment
 * splits it: the part before keeps the segment's id, the run and the part after get new ones.
 * Null when the words are already that speaker's.
 */
export function reassign(
  state: TranscriptState,
  segmentId: string,
  speakerId: string,
  wordIds: readonly string[] | undefined,
  ids: IdSource,
): Change | null {
  const segment = state.segments[segmentAt(state, segmentId)]!;
  speakerOf(state, speakerId);
  if (segment.speakerId === speakerId) return null;
  const { from, to } = wordIds ? contiguousRun(segment, wordIds) : { from: 0, to: segment.words.length };
  const parts = [
    { words: segment.words.slice(0, from), speakerId: segment.speakerId },
    { words: segment.words.slice(from, to), speakerId },
    { words: segment.words.slice(to), speakerId: segment.speakerId },
  ].filter((p) => p.words.length > 0);
  const after = parts.map((p, k) =>
    withWords(segment, p.words, { _id: k === 0 ? segment._id : ids.segment(), speakerId: p.speakerId }),
  );
  const what =
    from === 0 && to === segment.words.length
      ? quote(segment.text)
      : quote(after.find((s) => s.speakerId === speakerId)!.text);
  return {
    kind: 'segment_speaker',
    summary: `Gave ${what} to ${quote(nameOf(state, speakerId))}`,
    before: [segment],
    after,
  };
}

/** Splits a segment so that a new one starts at `wordId`. */
export function split(state: TranscriptState, segmentId: string, wordId: string, ids: IdSource): Change {
  const segment = state.segments[segmentAt(state, segmentId)]!;
  const at = segment.words.findIndex((w) => w._id === wordId);
  if (at < 0) throw notFound('Word');
  if (at === 0)
    throw badRequest('Invalid body.wordId: a segment cannot be split before its first word', { field: 'body.wordId' });
  const first = withWords(segment, segment.words.slice(0, at));
  const second = withWords(segment, segment.words.slice(at), { _id: ids.segment() });
  return {
    kind: 'split',
    summary: `Split ${quote(segment.text)} before ${quote(segment.words[at]!.text)}`,
    before: [segment],
    after: [first, second],
  };
}

/** Merges a segment with the next one in time, which must be the same speaker's (409 otherwise). */
export function mergeWithNext(state: TranscriptState, segmentId: string): Change {
  const index = segmentAt(state, segmentId);
  const segment = state.segments[index]!;
  const next = state.segments[index + 1];
  if (!next) throw conflict('This is the last segment: there is no next segment to merge with');
  if (next.speakerId !== segment.speakerId) {
    throw conflict(
      `The next segment is ${nameOf(state, next.speakerId)}'s, not ${nameOf(state, segment.speakerId)}'s: give it to the same speaker first`,
    );
  }
  const merged = withWords(segment, [...segment.words, ...next.words]);
  return {
    kind: 'merge_segments',
    summary: `Merged ${quote(segment.text)} with ${quote(next.text)}`,
    before: [segment, next],
    after: [merged],
  };
}

export interface ReplaceInput {
  find: string;
  replace: string;
  matchCase: boolean;
  wholeWord: boolean;
  /** Replace-one: only this segment's `occurrence`-th match (0-based, default the first). */
  segmentId?: string;
  occurrence?: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The matches of `find` in a segment's text, as the search box shows them. */
export function finder(input: Pick<ReplaceInput, 'find' | 'matchCase' | 'wholeWord'>): RegExp {
  const body = escapeRegExp(input.find);
  const pattern = input.wholeWord ? `(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])` : body;
  return new RegExp(pattern, input.matchCase ? 'gu' : 'giu');
}

/** Character ranges of the segment's words in its text (words joined by one space, as segmentText). */
function wordRanges(segment: SpeakerSegment): { start: number; end: number }[] {
  let at = 0;
  return segment.words.map((w) => {
    const start = at;
    at += w.text.trim().length + 1;
    return { start, end: start + w.text.trim().length };
  });
}

/**
 * The runs of one segment for some matches: the words a match touches are edited (a match inside a
 * word edits that word; one across words edits them all); matches touching the same words are one run.
 */
function matchRuns(
  segment: SpeakerSegment,
  matches: readonly { start: number; end: number }[],
  replace: string,
): Run[] {
  const ranges = wordRanges(segment);
  const text = segment.words.map((w) => w.text.trim()).join(' ');
  const groups: { from: number; to: number; matches: { start: number; end: number }[] }[] = [];
  for (const match of matches) {
    let from = ranges.findIndex((r) => r.end > match.start);
    let to = ranges.findLastIndex((r) => r.start < match.end) + 1;
    // A match of spaces only touches no word: it joins the words on its sides.
    if (from < 0 || to <= from) {
      from = Math.max(
        0,
        ranges.findLastIndex((r) => r.end <= match.start),
      );
      to = Math.min(ranges.length, Math.max(from + 1, ranges.findIndex((r) => r.start >= match.end) + 1));
    }
    const last = groups[groups.length - 1];
    if (last && from < last.to) {
      last.to = Math.max(last.to, to);
      last.matches.push(match);
    } else {
      groups.push({ from, to, matches: [match] });
    }
  }
  return groups.map((g) => {
    const start = ranges[g.from]!.start;
    let replaced = '';
    let at = start;
    for (const m of g.matches) {
      replaced += text.slice(at, m.start) + replace;
      at = m.end;
    }
    replaced += text.slice(at, ranges[g.to - 1]!.end);
    return { from: g.from, to: g.to, tokens: tokensOf(replaced) };
  });
}

/**
 * Find and replace across the transcript (or one match of one segment). Matches are found in each
 * segment's text, so a phrase of several words matches within a segment, never across two.
 * `replaced` counts the matches replaced; the change is null when nothing changed.
 */
export function replaceText(
  state: TranscriptState,
  input: ReplaceInput,
  ids: IdSource,
): { replaced: number; change: Change | null } {
  const pattern = finder(input);
  const targets = input.segmentId ? [state.segments[segmentAt(state, input.segmentId)]!] : state.segments;
  checkTokens(tokensOf(input.replace), 'body.replace');
  const before: SpeakerSegment[] = [];
  const after: SpeakerSegment[] = [];
  let replaced = 0;
  for (const segment of targets) {
    const text = segment.words.map((w) => w.text.trim()).join(' ');
    let matches = [...text.matchAll(pattern)]
      .filter((m) => m[0].length > 0)
      .map((m) => ({ start: m.index, end: m.index + m[0].length }));
    if (input.segmentId) matches = matches.slice(input.occurrence ?? 0, (input.occurrence ?? 0) + 1);
    if (matches.length === 0) continue;
    const runs = matchRuns(segment, matches, input.replace);
    checkTokens(
      runs.flatMap((r) => r.tokens),
      'body.replace',
    );
    replaced += matches.length;
    const changed = retext(segment, runs, ids);
    if (!changed) continue;
    before.push(segment);
    after.push(...changed);
  }
  if (before.length === 0) return { replaced, change: null };
  const where = input.segmentId ? 'once' : `${replaced} time${replaced === 1 ? '' : 's'}`;
  return {
    replaced,
    change: {
      kind: 'replace',
      summary: `Replaced ${quote(input.find)} with ${quote(input.replace)} ${where}`,
      before,
      after,
    },
  };
}

/**
 * The segments after a change: touched segments are swapped in place (same id) or dropped, new
 * ones follow the first touched segment; then all are ordered by start, ties keeping that order.
 */
export function applyChange(
  segments: readonly SpeakerSegment[],
  change: Pick<Change, 'before' | 'after'>,
): SpeakerSegment[] {
  const touched = new Set(change.before.map((s) => s._id));
  const same = new Map(change.after.filter((s) => touched.has(s._id)).map((s) => [s._id, s]));
  const fresh = change.after.filter((s) => !touched.has(s._id));
  const out: SpeakerSegment[] = [];
  let placed = false;
  for (const segment of segments) {
    if (!touched.has(segment._id)) {
      out.push(segment);
      continue;
    }
    const replacement = same.get(segment._id);
    if (replacement) out.push(replacement);
    if (!placed) {
      out.push(...fresh);
      placed = true;
    }
  }
  if (!placed) out.push(...fresh);
  return out.sort((a, b) => a.start - b.start);
}

/** JSON with sorted keys: a segment read back from JSONB compares equal to the one written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const CHANGED_SINCE = 'This edit cannot be undone or redone: what it changed has been edited again since';

/**
 * The speakers list with one edit's speaker changes taken back (`from` → `to`), leaving every other
 * speaker as it is now. A speaker the edit changed that has changed again since is a conflict.
 */
function revertSpeakers(
  current: readonly SpeakerInfo[],
  from: readonly SpeakerInfo[],
  to: readonly SpeakerInfo[],
): SpeakerInfo[] {
  const ids = new Set([...from, ...to].map((s) => s.id));
  const find = (list: readonly SpeakerInfo[], id: string) => list.find((s) => s.id === id);
  let result = [...current];
  for (const id of ids) {
    const was = find(from, id);
    const target = find(to, id);
    if (canonical(was) === canonical(target)) continue;
    if (canonical(find(current, id)) !== canonical(was)) throw conflict(CHANGED_SINCE);
    result = result.filter((s) => s.id !== id);
    if (target) result.splice(Math.min(to.indexOf(target), result.length), 0, target);
  }
  return result;
}

/** A recorded edit as undo and redo read it. */
export interface RecordedChange {
  before: SpeakerSegment[];
  after: SpeakerSegment[];
  speakers?: { before: SpeakerInfo[]; after: SpeakerInfo[] } | null;
}

/**
 * Undo (`undo`: back from `after` to `before`) or redo (the other way) of a recorded edit, as a
 * change of its own. 409 when a segment or speaker it changed is no longer as it left them.
 */
export function reverse(
  state: TranscriptState,
  edit: RecordedChange,
  direction: 'undo' | 'redo',
  summary: string,
): Change {
  const [from, to] = direction === 'undo' ? [edit.after, edit.before] : [edit.before, edit.after];
  const now = new Map(state.segments.map((s) => [s._id, s]));
  const fromIds = new Set(from.map((s) => s._id));
  if (from.some((s) => canonical(now.get(s._id)) !== canonical(s))) throw conflict(CHANGED_SINCE);
  if (to.some((s) => !fromIds.has(s._id) && now.has(s._id))) throw conflict(CHANGED_SINCE);
  const change: Change = { kind: direction, summary, before: from, after: to };
  if (edit.speakers) {
    const [was, target] =
      direction === 'undo' ? [edit.speakers.after, edit.speakers.before] : [edit.speakers.before, edit.speakers.after];
    change.speakers = { before: state.speakers, after: revertSpeakers(state.speakers, was, target) };
  }
  return change;
}

/** The change `reverse` would make, or null where it refuses (changed since): a stack's edits are checked with it. */
export function reversible(state: TranscriptState, edit: RecordedChange, direction: 'undo' | 'redo'): Change | null {
  try {
    return reverse(state, edit, direction, '');
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 409) return null;
    throw error;
  }
}

/** What a client applies: the ids gone and the segments new or changed. */
export function patchOf(change: Pick<Change, 'before' | 'after'>): { removed: string[]; segments: SpeakerSegment[] } {
  const kept = new Set(change.after.map((s) => s._id));
  return { removed: change.before.filter((s) => !kept.has(s._id)).map((s) => s._id), segments: change.after };
}
