import { z } from 'zod';
import { TRANSCRIPTION_STATUSES } from '../constants';
import { defineEvent } from './envelope';

const topic = 'earshot.transcription';

/** One speaker segment as other services learn it: who spoke, when (seconds) and what. */
export const TranscriptSegmentFact = z.object({ segmentId: z.string(), speaker: z.string(), start: z.number(), end: z.number(), text: z.string() });
export type TranscriptSegmentFact = z.infer<typeof TranscriptSegmentFact>;

export const transcriptionEvents = [
  defineEvent({
    type: 'transcript.status_changed', version: 1, topic,
    description: "A file's transcription moved to another status (failed carries a human-readable reason).",
    data: z.object({ fileId: z.string(), status: z.enum(TRANSCRIPTION_STATUSES), reason: z.string().nullable().optional(), attempt: z.number().int().optional() }),
  }),
  defineEvent({
    type: 'transcript.completed', version: 2, topic,
    description: 'A transcript is ready. v2 carries the file name and each speaker segment\'s text and times, so other services (the chat assistant\'s search) can keep their own copy.',
    data: z.object({
      id: z.string(), fileId: z.string(), fileName: z.string(), engine: z.string(), duration: z.number(), speakers: z.number().int(), words: z.number().int(),
      segments: z.array(TranscriptSegmentFact),
    }),
  }),
  defineEvent({
    type: 'transcript.word_edited', version: 2, topic,
    description: 'A person corrected a word. v2 carries the segment\'s whole text after the edit.',
    data: z.object({ id: z.string(), fileId: z.string(), wordId: z.string(), segmentId: z.string(), segmentText: z.string(), before: z.object({ text: z.string() }), after: z.object({ text: z.string() }) }),
  }),
  defineEvent({
    type: 'transcript.client_linked', version: 1, topic,
    description: 'A transcript was linked to (or unlinked from) a client.',
    data: z.object({ id: z.string(), fileId: z.string(), before: z.object({ clientId: z.string().nullable() }), after: z.object({ clientId: z.string().nullable() }) }),
  }),
  defineEvent({
    type: 'transcript.deleted', version: 1, topic,
    description: 'A transcript was deleted; the file service removes the file and its audio.',
    data: z.object({ id: z.string().nullable(), fileId: z.string() }),
  }),
] as const;
