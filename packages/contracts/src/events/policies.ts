import { z } from 'zod';
import { CompanyPolicies } from '../api/policies';
import { defineEvent } from './envelope';

export const policyEvents = [
  defineEvent({
    type: 'company.policies_changed', version: 1, topic: 'earshot.tenant',
    description: "A company's data policies (redaction, keeping originals, encryption, retention) were changed; the transcription service keeps the redaction mode for the transcripts it finishes from then on.",
    data: z.object({ id: z.string(), before: CompanyPolicies, after: CompanyPolicies }),
  }),
] as const;
