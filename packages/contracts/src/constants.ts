// The contracts' run-time constants without zod: `@earshot/contracts/constants`. The web console
// imports these (and only types from the main entry), so the schemas never reach its bundle.
// Everything here is also exported by the main entry; the zod schemas build on these values.
export * from './roles';
export * from './policy-constants';

export const ERROR_CODES = {
  BAD_REQUEST: 'BAD_REQUEST',
  VALIDATION: 'VALIDATION_FAILED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  CSRF: 'CSRF_REJECTED',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  /** An AI provider refused or could not be reached; the message is the provider's words. */
  PROVIDER_ERROR: 'PROVIDER_ERROR',
  INTERNAL: 'INTERNAL',
  FEATURE_DISABLED: 'FEATURE_DISABLED',
} as const;

export const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  notSignedIn: 'You are not signed in',
  forbidden: 'Your role does not allow this',
  notFound: 'Not found',
  csrf: 'Cross-site request rejected: send the X-Requested-With header',
  internal: 'Something went wrong on our side',
  tooManyAttempts: 'Too many attempts, try again later',
  invalidApiKey: 'Invalid API key',
  notForApiKeys: 'An API key may only upload recordings and read transcripts',
} as const;

/** The header integrations send a company API key in (see SERVICE_ROLE). */
export const API_KEY_HEADER_NAME = 'X-API-Key';

/** The largest page any list gives (`pageSize`). */
export const PAGE_SIZE_MAX = 200;

/** Password policy: long passphrases welcome, bounded so hashing cannot be abused. */
export const PASSWORD_RULES = { minLength: 8, maxLength: 200 } as const;

/** invited: created with an invitation and waiting for the person to choose a password (cannot sign in). */
export const USER_STATUSES = ['active', 'disabled', 'invited'] as const;
/** What an administrator may set: an account becomes active from invited only through its invitation. */
export const SETTABLE_USER_STATUSES = ['active', 'disabled'] as const;
/** An invitation link works once, for this many days. */
export const INVITATION_DAYS = 7;

/** Error codes of the users administration and sign-in, so the console can tell them apart. */
export const AUTH_CODES = {
  companySuspended: 'COMPANY_SUSPENDED',
  userLimit: 'USER_LIMIT_REACHED',
  lastAdmin: 'LAST_ADMIN',
  invitationPending: 'INVITATION_PENDING',
  ssoRequired: 'SSO_REQUIRED',
} as const;

export const AUTH_MESSAGES = {
  /** Sign-in (after a correct password) and refresh of someone whose company is suspended or inactive. */
  companySuspended: "Your company's access is suspended: contact your administrator",
  userLimit: 'This company has reached its maximum number of users',
  lastAdmin: 'A company needs at least one active administrator: make someone else ADMIN first',
  /** The password chosen at "must change at next sign-in" is the one-time password itself. */
  samePassword: 'Choose a password different from the one-time password',
  /** Sign-in of someone invited who has not chosen a password yet. */
  invitationPending:
    'Your account is waiting for you to accept your invitation: choose your password with the link in the invitation e-mail, or ask your administrator to send it again',
  /** Resend or revoke for someone who is not (or no longer) invited. */
  notInvited: 'This user has no pending invitation',
  /** Password sign-in, reset or invitation of someone whose company requires its own sign-in (single sign-on). */
  ssoRequired:
    'Your company signs in with its own identity provider: use “Continue with your company” on the sign-in page',
} as const;

// Single sign-on through a company's own identity provider (OpenID Connect).
/** Roles single sign-on may give: never HOST_ADMIN, whatever a provider's claim says. */
export const SSO_ROLES = ['ADMIN', 'USER', 'CALLER'] as const;
/** What someone new gets when no mapped claim value matches. */
export const SSO_DEFAULT_ROLES = ['USER', 'CALLER'] as const;
export const SSO_MAX_DOMAINS = 20;
export const SSO_MAX_ROLE_MAP = 50;

/**
 * Why an SSO sign-in was refused: the `?error=` of /signin (the page says it in words) and the
 * reason of the audited `user.sign_in_failed`.
 */
export const SSO_ERRORS = [
  'sso_cancelled',
  'sso_state',
  'sso_token',
  'sso_no_email',
  'sso_email_unverified',
  'sso_user_limit',
  'sso_disabled',
  'sso_unavailable',
  'sso_not_configured',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** Statuses of a stored file; a file that is in storage is 'completed'. */
export const FILE_STATUSES = ['pending', 'processing', 'completed', 'failed', 'not_started'] as const;

/** Audio the upload accepts, recognised by content (magic bytes), never by name or client type. */
export const AUDIO_FORMATS = ['wav', 'mp3', 'm4a', 'aac', 'ogg', 'opus', 'webm', 'flac'] as const;

/** Where a stored file's audio streams from: this prefix plus its storage key (`<companyId>/<uuid>`). */
export const UPLOAD_URL_PREFIX = '/api/uploads/';

/** Where a person's uploaded picture is served: `/api/users/avatars/<userId>?v=<when>`. */
export const AVATAR_URL_PREFIX = '/api/users/avatars/';
/** A picture is small: it is drawn at most 64 px wide. */
export const AVATAR_MAX_BYTES = 1024 * 1024;

export const FILE_MESSAGES = {
  unsupported: `Only audio files can be uploaded (${AUDIO_FORMATS.join(', ')})`,
  quota: 'Storage limit reached for your company',
  noFile: 'Choose an audio file to upload',
  oneFile: 'Upload one file at a time',
  notMultipart: 'Send the file as multipart/form-data',
  companyRequired: 'Name the company to upload to (companyId)',
} as const;

export const TRANSCRIPTION_STATUSES = ['not_started', 'pending', 'processing', 'completed', 'failed'] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

export const TRANSCRIPT_MESSAGES = {
  wordUpdated: 'Word updated successfully',
  wordFailed: 'Word Failed',
  queued: 'Transcription queued',
  alreadyRunning: 'This file is being transcribed right now',
  deleted: 'Transcript deleted successfully',
  clientLinked: 'Client linked successfully',
  clientUnlinked: 'Client unlinked successfully',
  notYours: 'Only the person who uploaded this recording or an administrator can delete it or transcribe it again',
} as const;

/**
 * The response header naming the edit a word edit or a speaker rename made (their answers keep
 * their own shapes), so the viewer can put it on its undo stack. Absent when nothing changed.
 */
export const EDIT_ID_HEADER = 'x-edit-id';
/**
 * How many spans the company's redaction hid in a write whose answer cannot take a `redacted`
 * field (a list: the speakers of a rename, a company's tags); see RedactedCount.
 */
export const REDACTED_HEADER = 'x-redacted';

/** The longest text a corrected word may have (a word or a short phrase, never a paragraph). */
export const MAX_WORD_LENGTH = 100;

/** Chat service: conversations private to their owner, messages, streamed replies, feedback. */
export const CHAT_LIMITS = {
  /** Longest message a person may send (characters). */
  messageMax: 20_000,
  titleMax: 200,
  commentMax: 2_000,
} as const;

export const CHAT_MESSAGES = {
  emptyMessage: 'Type a message first',
  tooLong: `Messages can be at most ${CHAT_LIMITS.messageMax} characters`,
  unknownModel: 'Unknown or disabled chat model',
  providerFailed: 'The AI provider failed to answer',
  busy: 'A reply is already being written in this conversation',
} as const;

/**
 * How a speaker is named to people, the same in the viewer, chat citations and analysis: the
 * transcript's own label for that speaker when it has one (the channels of a stereo call are
 * "Agent" and "Customer"), else "Speaker N" from the id `speaker_<N-1>`, else the id as it is.
 * A name passed in comes back unchanged, so naming twice is harmless.
 */
export function speakerName(speakerId: string, speakers?: readonly { id: string; label: string }[] | null): string {
  const label = speakers?.find((s) => s.id === speakerId)?.label.trim();
  if (label) return label;
  const numbered = /^speaker_(\d{1,4})$/.exec(speakerId.trim());
  return numbered ? `Speaker ${Number(numbered[1]) + 1}` : speakerId;
}

/** A bound conversation: the chat about one recording (`/chat?transcript=<fileId>`). */
export const CHAT_TRANSCRIPT_PARAM = 'transcript';

/** The id of the built-in search assistant wherever a model id goes. */
export const BUILT_IN_MODEL_ID = 'built-in';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export const MESSAGE_STATUSES = ['complete', 'stopped', 'failed'] as const;

export * from './ai-constants';
export * from './company-constants';
export * from './credit-constants';
export * from './email';
export * from './gpt-constants';
export * from './task-constants';
export * from './file-constants';
export * from './scim-constants';
