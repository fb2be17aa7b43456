// A company's data policies, zod-free for the console; the schemas are in api/policies.ts.

/** off: transcripts as recognised; text: sensitive words replaced by a label; text_audio: and the audio silenced over them. */
export const REDACTION_MODES = ['off', 'text', 'text_audio'] as const;
export type RedactionMode = (typeof REDACTION_MODES)[number];

/**
 * The shortest retention a company may set, in days (null: keep forever). Audit entries: 365, as
 * PCI DSS v4 requirement 10.5.1 asks for twelve months of audit history; recordings, transcripts
 * and chats: 1 (no law asks a company in general to keep calls; a regulated firm sets its own
 * longer period, e.g. MiFID II's five years). At most 100 years.
 */
export const RETENTION_MINIMUM_DAYS = { recordingsDays: 1, chatsDays: 1, auditDays: 365 } as const;
export const RETENTION_MAXIMUM_DAYS = 36_500;

export const POLICY_MESSAGES = {
  encryptionIrreversible:
    "Encryption at rest cannot be turned off: this company's recordings are stored encrypted under its data key, and decrypting them back to plain would undo the protection. The encrypted data goes only with the company (deleting it destroys the key)",
  encryptionInPolicies:
    "Encryption at rest is turned on in the company's data policies (PUT /api/companies/{id}/policies), which check the server's master key and tell every service; it cannot be changed with the company's other fields",
  keepOriginalNeedsEncryption:
    'Keeping the unredacted original needs encryption at rest: turn encryption on for this company, since originals are stored only encrypted under its data key',
} as const;
