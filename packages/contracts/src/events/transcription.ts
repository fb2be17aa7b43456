import { z } from 'zod';
import { TRANSCRIPTION_STATUSES } from '../constants';
import { defineEvent, pastVersion } from './envelope';

const topic = 'earshot.transcription';

/**
 * One speaker segment as other services learn it: who spoke (`speaker`: the name, `speakerId`:
 * the transcript's id for that speaker, absent on events written before speakers could be renamed),
 * when (seconds) and what.
 */
export const TranscriptSegmentFact = z.object({
  segmentId: z.string(),
  speaker: z.string(),
  speakerId: z.string().optional(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
});
export type TranscriptSegmentFact = z.infer<typeof TranscriptSegmentFact>;

const CompletedV1 = z.object({
  id: z.string(),
  fileId: z.string(),
  engine: z.string(),
  duration: z.number(),
  speakers: z.number().int(),
  words: z.number().int(),
});
const CompletedV2 = CompletedV1.extend({ fileName: z.string(), segments: z.array(TranscriptSegmentFact) });

/** Budget of one transcript.text_published part: well under any broker's message limit. */
export const TEXT_PART_BYTES = 64 * 1024;

const utf8 = new TextEncoder();

/**
 * A transcript's segments cut into parts of at most TEXT_PART_BYTES of JSON each (a segment is at
 * most 30 seconds of speech, far below the budget, so every segment fits in a part whole).
 */
export function textParts(segments: readonly TranscriptSegmentFact[]): TranscriptSegmentFact[][] {
  const parts: TranscriptSegmentFact[][] = [];
  let current: TranscriptSegmentFact[] = [];
  let bytes = 0;
  for (const segment of segments) {
    const size = utf8.encode(JSON.stringify(segment)).length + 1;
    if (current.length > 0 && bytes + size > TEXT_PART_BYTES) {
      parts.push(current);
      current = [];
      bytes = 0;
    }
    current.push(segment);
    bytes += size;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

export const transcriptionEvents = [
  defineEvent({
    type: 'transcript.status_changed',
    version: 1,
    topic,
    description: "A file's transcription moved to another status (failed carries a human-readable reason).",
    data: z.object({
      fileId: z.string(),
      status: z.enum(TRANSCRIPTION_STATUSES),
      reason: z.string().nullable().optional(),
      attempt: z.number().int().optional(),
      // Set when the job is queued, so credits can reserve the estimated minutes before it runs.
      estimatedSeconds: z.number().min(0).optional(),
      engine: z.string().optional(),
      modelId: z.string().nullable().optional(),
    }),
  }),
  defineEvent({
    type: 'transcript.completed',
    version: 3,
    topic,
    description:
      'A transcript is ready and replaces any earlier one of the file. Its text follows in `parts` transcript.text_published events, ' +
      'so no event grows with the recording. `segments` is set only on events written as v2, which carried the text inline.',
    data: CompletedV1.extend({
      fileName: z.string(),
      parts: z.number().int().min(0),
      segments: z.array(TranscriptSegmentFact).optional(),
      /** The speech-to-text model (`_id`) when a configured provider transcribed it, for its price; null for the offline engine. */
      modelId: z.string().nullable().optional(),
    }),
    past: [
      // v1 carried no file name and no text: the text of that run is unknown, the earlier run's is stale.
      pastVersion(1, CompletedV1, (d) => ({ ...d, fileName: '', segments: [] })),
      pastVersion(2, CompletedV2, (d) => ({ ...d, parts: 0 })),
    ],
  }),
  defineEvent({
    type: 'transcript.text_published',
    version: 1,
    topic,
    description:
      `One part of a completed transcript's text (part 0 … parts-1, at most ${TEXT_PART_BYTES} bytes of segments each), ` +
      "in order after its transcript.completed, so other services (the chat assistant's search) can keep their own copy.",
    data: z.object({
      id: z.string(),
      fileId: z.string(),
      fileName: z.string(),
      part: z.number().int().min(0),
      parts: z.number().int().min(1),
      segments: z.array(TranscriptSegmentFact),
    }),
  }),
  defineEvent({
    type: 'transcript.word_edited',
    version: 2,
    topic,
    description: "A person corrected a word. v2 carries the segment's whole text after the edit.",
    data: z.object({
      id: z.string(),
      fileId: z.string(),
      wordId: z.string(),
      segmentId: z.string(),
      segmentText: z.string(),
      before: z.object({ text: z.string() }),
      after: z.object({ text: z.string() }),
    }),
  }),
  defineEvent({
    type: 'transcript.segments_changed',
    version: 1,
    topic,
    description:
      'A person edited a transcript (segment text, speaker turns, split, merge, replace, speaker rename or merge, undo, redo). ' +
      'Copies delete the `removed` segment ids (part 0 only) and upsert `segments` by segment id; cut into `parts` like transcript.text_published.',
    data: z.object({
      id: z.string(),
      fileId: z.string(),
      editId: z.string(),
      kind: z.string(),
      part: z.number().int().min(0),
      parts: z.number().int().min(1),
      removed: z.array(z.string()),
      segments: z.array(TranscriptSegmentFact),
    }),
  }),
  defineEvent({
    type: 'transcript.speakers_changed',
    version: 1,
    topic,
    description:
      "A transcript's speakers and their names, whole: after every transcript.completed and after an edit that renamed or merged speakers.",
    data: z.object({
      id: z.string(),
      fileId: z.string(),
      speakers: z.array(z.object({ speakerId: z.string(), name: z.string() })),
    }),
  }),
  defineEvent({
    type: 'transcript.client_linked',
    version: 1,
    topic,
    description: 'A transcript was linked to (or unlinked from) a client.',
    data: z.object({
      id: z.string(),
      fileId: z.string(),
      before: z.object({ clientId: z.string().nullable() }),
      after: z.object({ clientId: z.string().nullable() }),
    }),
  }),
  defineEvent({
    type: 'transcript.deleted',
    version: 1,
    topic,
    description: 'A transcript was deleted; the file service removes the file and its audio.',
    data: z.object({ id: z.string().nullable(), fileId: z.string() }),
  }),
  defineEvent({
    type: 'transcript.original_read',
    version: 1,
    topic,
    description:
      "The company's ADMIN (the actor) read the unredacted original of a recording: its words or its audio (once per request, " +
      'a range of the audio included). Only the audit log needs it.',
    data: z.object({ id: z.string(), fileId: z.string(), what: z.enum(['words', 'audio']) }),
  }),
  // Speech models are the platform's, not a company's (companyId null); the actor is who asked.
  defineEvent({
    type: 'speech_model.ready',
    version: 1,
    topic,
    description: 'A speech model finished downloading and passed its SHA-256 check.',
    data: z.object({ name: z.string(), sha256: z.string(), sizeBytes: z.number().int() }),
  }),
  defineEvent({
    type: 'speech_model.removed',
    version: 1,
    topic,
    description: "A speech model's file was deleted from the machine.",
    data: z.object({ name: z.string() }),
  }),
  defineEvent({
    type: 'speech_model.default_changed',
    version: 1,
    topic,
    description:
      'Another Whisper model became the default of the offline engine (`before`: the previous default, null when none).',
    data: z.object({ name: z.string().nullable(), before: z.string().nullable() }),
  }),
] as const;
