import { z } from 'zod';
import { defineEvent } from './envelope';

const topic = 'earshot.file';

export const fileEvents = [
  defineEvent({
    type: 'file.uploaded', version: 1, topic,
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
    }),
  }),
  defineEvent({
    type: 'file.deleted', version: 1, topic,
    description: 'A file record and its stored audio were removed.',
    data: z.object({ id: z.string(), storageKey: z.string() }),
  }),
] as const;
