import { z } from 'zod';
import { CompanyPolicies } from '../api/policies';
import { defineEvent } from './envelope';

export const policyEvents = [
  defineEvent({
    type: 'company.policies_changed',
    version: 1,
    topic: 'earshot.tenant',
    description:
      "A company's data policies (redaction, keeping originals, encryption, retention) were changed; the transcription service keeps the redaction mode for the transcripts it finishes from then on.",
    data: z.object({ id: z.string(), before: CompanyPolicies, after: CompanyPolicies }),
  }),
  defineEvent({
    type: 'transcript.audio_redacted',
    version: 1,
    topic: 'earshot.transcription',
    description:
      "A recording's stored audio was silenced over what redaction hid (policy text_audio) and written back under the same key; `size` is its new size in bytes (the file service serves downloads and ranges by it).",
    data: z.object({ fileId: z.string(), size: z.number().int().nonnegative(), spans: z.number().int().positive() }),
  }),
] as const;
