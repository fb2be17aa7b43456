// The contracts' run-time constants without zod: `@earshot/contracts/constants`. The web console
// imports these (and only types from the main entry), so the schemas never reach its bundle.
// Everything here is also exported by the main entry; the zod schemas build on these values.
export * from './roles';

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
  INTERNAL: 'INTERNAL',
} as const;

export const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  notSignedIn: 'You are not signed in',
  forbidden: 'Your role does not allow this',
  notFound: 'Not found',
  csrf: 'Cross-site request rejected: send the X-Requested-With header',
  internal: 'Something went wrong on our side',
  tooManyAttempts: 'Too many attempts, try again later',
} as const;

/** The largest page any list gives (`pageSize`). */
export const PAGE_SIZE_MAX = 200;

/** Password policy: long passphrases welcome, bounded so hashing cannot be abused. */
export const PASSWORD_RULES = { minLength: 8, maxLength: 200 } as const;

export const USER_STATUSES = ['active', 'disabled'] as const;

/** Statuses of a stored file (spec part 4); a file that is in storage is 'completed'. */
export const FILE_STATUSES = ['pending', 'processing', 'completed', 'failed', 'not_started'] as const;

/** Audio the upload accepts, recognised by content (magic bytes), never by name or client type. */
export const AUDIO_FORMATS = ['wav', 'mp3', 'm4a', 'aac', 'ogg', 'opus', 'webm', 'flac'] as const;

/** Where a stored file's audio streams from: this prefix plus its storage key (`<companyId>/<uuid>`). */
export const UPLOAD_URL_PREFIX = '/api/uploads/';

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

/** The id of the built-in search assistant wherever a model id goes. */
export const BUILT_IN_MODEL_ID = 'built-in';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export const MESSAGE_STATUSES = ['complete', 'stopped', 'failed'] as const;

/**
 * AI providers and models (prompt service, /ai/config/*, HOST_ADMIN). Every provider speaks the
 * OpenAI API (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, OpenRouter, Groq...).
 */
export const PROVIDER_KINDS = ['openai-compatible'] as const;
export const MODEL_PURPOSES = ['chat', 'speech-to-text', 'embeddings'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];

export const AI_CONFIG_MESSAGES = {
  urlBlocked: 'This address is not allowed: link-local, metadata and other special addresses are refused',
  urlPrivate: 'Private and loopback addresses are refused unless AI_ALLOW_PRIVATE_URLS=true',
  providerInUse: 'Delete or move the models of this provider first',
  unknownProvider: 'Unknown provider',
  duplicateModel: 'This provider already has a model with this name and purpose',
} as const;
