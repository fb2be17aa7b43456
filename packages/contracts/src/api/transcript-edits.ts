import { z } from 'zod';
import { Id } from '../common';
import { SpeakerSegment, TranscriptItemId } from './transcription';
import { SPEAKER_NAME_MAX } from '../file-constants';

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
/** One line a person typed: trimmed, never empty, no control characters. */
const Line = (max: number) => z.string().trim().min(1).max(max).regex(ONE_LINE, 'must not contain control characters');

export { SPEAKER_NAME_MAX } from '../file-constants';
export const SEGMENT_TEXT_MAX = 5000;
export const FIND_MAX = 200;
/** Words reassigned at once: far more than a 30-second segment holds. */
export const WORD_IDS_MAX = 2000;

/**
 * Speakers' colours, by order (the first speaker of a transcript takes the first): distinct hues of
 * similar weight, readable as text and as waveform overlays in both themes.
 */
export const SPEAKER_COLORS = [
  '#2563eb',
  '#db2777',
  '#059669',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#dc2626',
  '#65a30d',
  '#c026d3',
  '#475569',
] as const;
export const speakerColor = (index: number): string =>
  SPEAKER_COLORS[((index % SPEAKER_COLORS.length) + SPEAKER_COLORS.length) % SPEAKER_COLORS.length]!;

/** One speaker of a transcript as the editor shows it: `name` is SpeakerInfo's `label`. */
export const TranscriptSpeakerDto = z.object({ speakerId: z.string(), name: z.string(), color: z.string() });
export type TranscriptSpeakerDto = z.infer<typeof TranscriptSpeakerDto>;
export const TranscriptSpeakers = z.array(TranscriptSpeakerDto);

export type TranscriptSpeakers = z.infer<typeof TranscriptSpeakers>;

/**
 * What an edit changed: segments gone (`removed`), segments new or changed (whole), and the
 * transcript's speakers after it. Applied to a copy, segments are re-sorted by start (ties: by
 * their order before). `editId` is null when the request changed nothing (no edit is recorded).
 */
export const TranscriptPatch = z.object({
  editId: z.string().nullable(),
  removed: z.array(z.string()),
  segments: z.array(SpeakerSegment),
  speakers: TranscriptSpeakers,
  /** False when the request changed nothing (e.g. the words were already replaced): `editId` is null then. */
  changed: z.boolean().optional(),
  /** The transcript's edit version after the request (see BaseVersion). */
  version: z.number().int().optional(),
});
export type TranscriptPatch = z.infer<typeof TranscriptPatch>;

export const TRANSCRIPT_EDIT_KINDS = [
  'word',
  'segment_text',
  'segment_speaker',
  'split',
  'merge_segments',
  'speaker_rename',
  'speaker_merge',
  'replace',
  'undo',
  'redo',
] as const;
export type TranscriptEditKind = (typeof TRANSCRIPT_EDIT_KINDS)[number];

/**
 * The transcript's edit version an edit was made on (also accepted as an `If-Match: "<n>"` header):
 * when another edit came first, the edit is refused with 409 CONFLICT and `details.currentVersion`.
 * Optional: without it an edit applies to whatever the transcript is now, as before.
 */
export const BaseVersion = z.number().int().min(0).optional();
/** The header an edit answer names the transcript's version in, ETag-style (`"<n>"`). */
export const TRANSCRIPT_VERSION_HEADER = 'etag';

export const SpeakerParams = z.object({ fileId: Id, speakerId: TranscriptItemId }).strict();
export const SegmentParams = z.object({ fileId: Id, segmentId: TranscriptItemId }).strict();
export const EditParams = z.object({ fileId: Id, editId: Id }).strict();

/** PUT /transcripts/{fileId}/speakers/{speakerId}: trimmed, 1–80 characters, one line. */
export const SpeakerRenameBody = z.object({ name: Line(SPEAKER_NAME_MAX), baseVersion: BaseVersion }).strict();
export type SpeakerRenameBody = z.infer<typeof SpeakerRenameBody>;

/**
 * POST /transcripts/{fileId}/speakers/merge: every segment of `from` becomes `into`'s; `from` is
 * gone. Two different speakers (the service answers 400 `body.into` once it has found the transcript,
 * so that another company's file stays a 404 whatever the body).
 */
export const SpeakerMergeBody = z
  .object({ from: TranscriptItemId, into: TranscriptItemId, baseVersion: BaseVersion })
  .strict();
export type SpeakerMergeBody = z.infer<typeof SpeakerMergeBody>;

/**
 * PUT /transcripts/{fileId}/segments/{segmentId}: `text` replaces the segment's words (unchanged
 * words keep id and times); `speakerId` reassigns the segment, or with `wordIds` (a contiguous run
 * of its words) only those words, splitting the segment around them.
 */
export const SegmentEditBody = z
  .object({
    text: Line(SEGMENT_TEXT_MAX).optional(),
    speakerId: TranscriptItemId.optional(),
    wordIds: z.array(TranscriptItemId).min(1).max(WORD_IDS_MAX).optional(),
    baseVersion: BaseVersion,
  })
  .strict()
  .refine((b) => b.text !== undefined || b.speakerId !== undefined, {
    path: ['text'],
    message: 'give text or speakerId',
  })
  .refine((b) => b.wordIds === undefined || b.speakerId !== undefined, {
    path: ['wordIds'],
    message: 'wordIds need a speakerId',
  })
  .refine((b) => b.wordIds === undefined || b.text === undefined, {
    path: ['wordIds'],
    message: 'wordIds cannot be combined with text',
  });
export type SegmentEditBody = z.infer<typeof SegmentEditBody>;

/** POST .../segments/{segmentId}/split: the new segment starts at `wordId`. */
export const SegmentSplitBody = z.object({ wordId: TranscriptItemId, baseVersion: BaseVersion }).strict();
/** POST .../segments/{segmentId}/merge: with the next segment, which must be the same speaker's. */
export const SegmentMergeBody = z.object({ baseVersion: BaseVersion }).strict();

/**
 * POST /transcripts/{fileId}/replace. Without `segmentId` every match is replaced; with it only one
 * match of that segment's text (`occurrence`, 0-based, default the first).
 */
export const ReplaceBody = z
  .object({
    // Not trimmed: a find of " a " differs from "a".
    find: z.string().min(1).max(FIND_MAX).regex(ONE_LINE, 'must not contain control characters'),
    replace: z.string().max(FIND_MAX).regex(ONE_LINE, 'must not contain control characters'),
    matchCase: z.boolean().default(false),
    wholeWord: z.boolean().default(false),
    segmentId: TranscriptItemId.optional(),
    occurrence: z.number().int().min(0).max(10_000).optional(),
    baseVersion: BaseVersion,
  })
  .strict()
  .refine((b) => b.occurrence === undefined || b.segmentId !== undefined, {
    path: ['occurrence'],
    message: 'occurrence needs a segmentId',
  });
export type ReplaceBody = z.infer<typeof ReplaceBody>;
/** `editId` is null and `changed` false when nothing matched (no edit is recorded). */
export const ReplaceAnswer = z.object({
  replaced: z.number().int(),
  editId: z.string().nullable(),
  changed: z.boolean().optional(),
  version: z.number().int().optional(),
});
export type ReplaceAnswer = z.infer<typeof ReplaceAnswer>;

const EditCursor = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a nextCursor value from a previous answer');
export const EditsQuery = z.object({ cursor: EditCursor.optional() }).strict();
export const TranscriptEditItem = z.object({
  _id: z.string(),
  kind: z.enum(TRANSCRIPT_EDIT_KINDS),
  summary: z.string(),
  actor: z.object({ userId: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  undone: z.boolean(),
});
export type TranscriptEditItem = z.infer<typeof TranscriptEditItem>;
/** Newest first; `nextCursor` continues after the last item (null: no more). */
export const TranscriptEditsPage = z.object({ items: z.array(TranscriptEditItem), nextCursor: z.string().nullable() });
export type TranscriptEditsPage = z.infer<typeof TranscriptEditsPage>;

/**
 * GET /transcripts/{fileId}/edits/mine: the caller's own undo and redo stacks on the transcript,
 * edit ids, the next to undo (or redo) last. `undo`: their last edits (at most 50) that stand and
 * could still be undone one after the other; `redo`: what they undid since their last new edit
 * that could still be redone. An edit changed since by someone else is in neither.
 */
export const TranscriptUndoStack = z.object({ undo: z.array(z.string()), redo: z.array(z.string()) });
export type TranscriptUndoStack = z.infer<typeof TranscriptUndoStack>;

/** GET /transcripts/people: with `fileId`, a stereo call's uploader comes first, marked `uploader`. */
export const PeopleQuery = z.object({ fileId: Id.optional() }).strict();
export const KnownPerson = z.object({
  name: z.string(),
  kind: z.enum(['member', 'contact', 'speaker']),
  uploader: z.literal(true).optional(),
});
export type KnownPerson = z.infer<typeof KnownPerson>;
export const KnownPeople = z.array(KnownPerson);
