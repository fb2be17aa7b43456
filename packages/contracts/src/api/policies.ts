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
