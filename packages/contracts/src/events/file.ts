import { z } from 'zod';
import { defineEvent } from './envelope';

const topic = 'earshot.file';

export const fileEvents = [
  defineEvent({
    type: 'file.uploaded',
    version: 1,
    topic,
    description: 'An audio file was stored; transcription starts from this.',
    data: z.object({
      id: z.string(),
      storageKey: z.string(),
      originalName: z.string(),
      mimeType: z.string(),
      size: z.number().int(),
      clientId: z.string().nullable(),
      uploadedBy: z.string().nullable(),
      /** How long it plays, as its header (or else its size) tells: what credits reserve for its transcription. */
      estimatedSeconds: z.number().min(0).optional(),
      /** The language the uploader declared (`auto`: the engine detects it); absent when none was. */
      language: z.string().optional(),
      /** How many speakers the uploader said the recording has. */
      speakers: z.number().int().min(1).optional(),
    }),
  }),
  defineEvent({
    type: 'file.tags_changed',
    version: 1,
    topic,
    description: "A file's tags changed (set on the file, or a tag renamed, merged or deleted across the company).",
    data: z.object({
      id: z.string(),
      before: z.object({ tags: z.array(z.string()) }),
      after: z.object({ tags: z.array(z.string()) }),
    }),
  }),
  defineEvent({
    type: 'file.deleted',
    version: 1,
    topic,
    description: 'A file record and its stored audio were removed.',
    data: z.object({ id: z.string(), storageKey: z.string() }),
  }),
] as const;
