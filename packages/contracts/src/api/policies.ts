import { z } from 'zod';
import { REDACTION_MODES, RETENTION_MAXIMUM_DAYS, RETENTION_MINIMUM_DAYS } from '../policy-constants';

const days = (minimum: number) => z.number().int().min(minimum).max(RETENTION_MAXIMUM_DAYS).nullable();

/** How long a company's data is kept, in days; null keeps it forever. */
export const RetentionPolicy = z.strictObject({
  recordingsDays: days(RETENTION_MINIMUM_DAYS.recordingsDays),
  chatsDays: days(RETENTION_MINIMUM_DAYS.chatsDays),
  auditDays: days(RETENTION_MINIMUM_DAYS.auditDays),
});
export type RetentionPolicy = z.infer<typeof RetentionPolicy>;

/** `PUT /api/companies/{id}/policies` and its `GET`: a company's redaction, encryption and retention. */
export const CompanyPolicies = z.strictObject({
  redaction: z.enum(REDACTION_MODES),
  keepOriginal: z.boolean(),
  encryption: z.boolean(),
  retention: RetentionPolicy,
});
export type CompanyPolicies = z.infer<typeof CompanyPolicies>;

/** The services that encrypt a company's existing data when encryption is turned on, in the order the console shows them. */
export const ENCRYPTING_SERVICES = ['file', 'transcription', 'chat', 'prompt'] as const;

/**
 * One service's background encryption of the company's existing data: `idle` until it reports,
 * `running` with how many of its objects are encrypted out of how many, `done` once all are.
 */
export const ServiceEncryptionProgress = z.object({
  service: z.string(),
  state: z.enum(['idle', 'running', 'done']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  updatedAt: z.string().datetime().nullable(),
});
export type ServiceEncryptionProgress = z.infer<typeof ServiceEncryptionProgress>;

/** `GET /api/companies/{id}/encryption`: whether encryption is on (or can be turned on) and each service's progress. */
export const CompanyEncryptionProgress = z.object({
  encryption: z.boolean(),
  /**
   * Whether this server has a master key, without which encryption cannot be turned on: the console
   * disables the switch and says why, rather than letting the person meet the refusal.
   */
  masterKeyConfigured: z.boolean(),
  services: z.array(ServiceEncryptionProgress),
});
export type CompanyEncryptionProgress = z.infer<typeof CompanyEncryptionProgress>;
