import { z } from 'zod';
import { defineEvent } from './envelope';

const topic = 'earshot.transcription';
export const TRANSCRIPTION_STATUSES = ['not_started', 'pending', 'processing', 'completed', 'failed'] as const;

export const transcriptionEvents = [
  defineEvent({
    type: 'transcript.status_changed', version: 1, topic,
    description: "A file's transcription moved to another status (failed carries a human-readable reason).",
    data: z.object({ fileId: z.string(), status: z.enum(TRANSCRIPTION_STATUSES), reason: z.string().nullable().optional(), attempt: z.number().int().optional() }),
  }),
  defineEvent({
    type: 'transcript.completed', version: 1, topic,
    description: 'A transcript is ready.',
    data: z.object({ id: z.string(), fileId: z.string(), engine: z.string(), duration: z.number(), speakers: z.number().int(), words: z.number().int() }),
  }),
  defineEvent({
    type: 'transcript.word_edited', version: 1, topic,
    description: 'A person corrected a word.',
    data: z.object({ id: z.string(), fileId: z.string(), wordId: z.string(), segmentId: z.string(), before: z.object({ text: z.string() }), after: z.object({ text: z.string() }) }),
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
