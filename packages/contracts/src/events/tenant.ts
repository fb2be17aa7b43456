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

export const tenantEvents = [
  defineEvent({ type: 'company.created', version: 1, topic, description: 'A company (tenant) was created.', data: change(CompanyState) }),
  defineEvent({ type: 'company.updated', version: 1, topic, description: 'A company was changed.', data: change(CompanyState) }),
  defineEvent({ type: 'company.deleted', version: 1, topic, description: 'A company was deleted.', data: change(CompanyState) }),
  defineEvent({ type: 'company.api_key_rotated', version: 1, topic, description: "A company's API key was replaced; the old key stops working (the key itself is never in the event).", data: z.object({ id: z.string() }) }),
  defineEvent({ type: 'company.features_changed', version: 1, topic, description: 'Feature switches of a company were changed.', data: z.object({ id: z.string(), before: Features, after: Features }) }),
] as const;
