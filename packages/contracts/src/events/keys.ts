import { z } from 'zod';
import { defineEvent } from './envelope';

/** Encryption at rest: facts about companies' data keys. Never a key, wrapped or not. */
export const keyEvents = [
  defineEvent({
    type: 'company.key_destroyed',
    version: 1,
    topic: 'earshot.keys',
    description:
      "A service destroyed a deleted company's data key (crypto-shredding) before removing its data: whatever that service stored encrypted for the company, copies included, can no longer be decrypted. The audit log records it.",
    data: z.object({ companyId: z.string(), service: z.string(), reason: z.enum(['company_deleted']) }),
  }),
  defineEvent({
    type: 'company.encryption_progressed',
    version: 1,
    topic: 'earshot.keys',
    description:
      "A service's background encryption of a company's existing data after encryption was turned on: how many of its objects are encrypted out of how many; `state` is `done` once every one is.",
    data: z.object({
      companyId: z.string(),
      service: z.string(),
      done: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      state: z.enum(['running', 'done']),
    }),
  }),
] as const;
