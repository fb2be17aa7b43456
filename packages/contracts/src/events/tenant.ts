import { z } from 'zod';
import { defineEvent, change } from './envelope';

const topic = 'earshot.tenant';
/**
 * What other services need to know of a company (auth keeps a projection of it). The fields after
 * maxStorage are optional so consumers built against the first six keep working; the tenant service
 * always sends them (the audit log shows them in before/after). Never the API key.
 */
export const CompanyState = z.object({
  name: z.string(),
  code: z.string(),
  domain: z.string(),
  status: z.string(),
  maxUsers: z.number().int().nullable(),
  maxStorage: z.number().nullable(),
  type: z.string().optional(),
  language: z.string().optional(),
  encryption: z.boolean().optional(),
  partnerCompanyId: z.string().nullable().optional(),
  favIcon: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
  mainPageLogo: z.string().nullable().optional(),
  theme: z.record(z.string(), z.string()).optional(),
});
export type CompanyState = z.infer<typeof CompanyState>;

const Features = z.record(z.string(), z.boolean());

/** A client as events carry it (audit before/after; the transcription service keeps id → company). */
export const ClientState = z.object({
  name: z.string(),
  organisation: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  externalId: z.string().nullable(),
  notes: z.string().nullable(),
  ownerId: z.string().nullable(),
});
export type ClientState = z.infer<typeof ClientState>;

export const tenantEvents = [
  defineEvent({
    type: 'company.created',
    version: 1,
    topic,
    description: 'A company (tenant) was created.',
    data: change(CompanyState),
  }),
  defineEvent({
    type: 'company.updated',
    version: 1,
    topic,
    description: 'A company was changed.',
    data: change(CompanyState),
  }),
  defineEvent({
    type: 'company.deleted',
    version: 1,
    topic,
    description:
      'A company was deleted: every service of COMPANY_DATA_SERVICES removes its data and reports company.data_removed; the tenant service removes the company once all have.',
    data: change(CompanyState),
  }),
  defineEvent({
    type: 'company.api_key_rotated',
    version: 1,
    topic,
    description:
      "A company's API key was created or replaced; the old key stops working at once (neither the key nor its hash is ever in the event: verifiers that cached the old key drop it).",
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'company.api_key_revoked',
    version: 1,
    topic,
    description:
      "A company's API key was revoked: requests with it are refused from now on, and the company has no key until a new one is generated.",
    data: z.object({ id: z.string() }),
  }),
  defineEvent({
    type: 'company.features_changed',
    version: 1,
    topic,
    description: 'Feature switches of a company were changed.',
    data: z.object({ id: z.string(), before: Features, after: Features }),
  }),
  defineEvent({
    type: 'feature.platform_switched',
    version: 1,
    topic,
    description:
      'A feature was switched on or off for the whole platform (off: no company has it, whatever its own switch).',
    data: z.object({ key: z.string(), enabled: z.boolean() }),
  }),
  defineEvent({
    type: 'company.data_removed',
    version: 1,
    topic,
    description:
      'A service removed the data it held for a deleted company (every service of COMPANY_DATA_SERVICES reports once; the tenant service then removes the company).',
    data: z.object({ companyId: z.string(), service: z.string() }),
  }),
  defineEvent({
    type: 'client.created',
    version: 1,
    topic,
    description: 'A client of a company was created.',
    data: change(ClientState),
  }),
  defineEvent({
    type: 'client.updated',
    version: 1,
    topic,
    description: 'A client was changed.',
    data: change(ClientState),
  }),
  defineEvent({
    type: 'client.deleted',
    version: 1,
    topic,
    description:
      'A client was deleted. Its recordings stay: the transcription service unlinks them (transcript.client_linked to null).',
    data: change(ClientState),
  }),
] as const;
