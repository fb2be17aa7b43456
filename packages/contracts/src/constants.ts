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

/** Prompts (prompt service, /prompts, spec part 3). */
export const PROMPT_TYPES = ['summary', 'sentiment', 'topic', 'question', 'custom', 'transcriptAnalysis', 'contextAnalysis'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
/** A prompt's scope; a prompt may have none (stored null, shown as 'NA'). */
export const PROMPT_SCOPES = ['global', 'company', 'user', 'system'] as const;
export type PromptScope = (typeof PROMPT_SCOPES)[number];
/** The types of an expected-format field: `custom` is one of a list of options. */
export const FORMAT_FIELD_TYPES = ['string', 'integer', 'boolean', 'custom'] as const;
export type FormatFieldType = (typeof FORMAT_FIELD_TYPES)[number];
/** The variables a prompt text may use as `{{name}}`; anything else is refused at save. */
export const PROMPT_VARIABLES = ['transcript', 'speakers', 'client.name', 'recording.date', 'recording.duration', 'language'] as const;
/** When a pattern runs by itself: never, on every completed transcript of its company, or on every recording linked to a client. */
export const PATTERN_AUTO_RUN = ['none', 'company_transcripts', 'client_recordings'] as const;
export type PatternAutoRun = (typeof PATTERN_AUTO_RUN)[number];

export const PROMPT_LIMITS = {
  nameMax: 200,
  descriptionMax: 2_000,
  textMax: 50_000,
  fieldsMax: 50,
  fieldNameMax: 100,
  fieldDescriptionMax: 1_000,
  optionsMax: 50,
  optionMax: 200,
  /** Companies or users a prompt is shared with. */
  audienceMax: 500,
  patternPromptsMax: 50,
} as const;

export const PROMPT_MESSAGES = {
  // The spec's expected-format messages (part 5), word for word.
  fieldNameRequired: 'Field name is required',
  descriptionRequired: 'Description is required',
  optionsRequired: 'Options are required for Custom type',
  optionsTooFew: 'At least 2 options are required for Custom type',
  rangeRequired: 'Range is required for integer type',
  rangeFormat: 'Range must be two whole numbers written min-max, e.g. 1-10',
  rangeOrder: 'The first number of a range must be smaller than the second',
  optionsUnique: 'Options must differ from each other',
  fieldNamesUnique: 'Field names must differ from each other',
  unknownVariable: 'Unknown variable',
  companiesRequired: 'Choose at least one company for a company prompt',
  usersRequired: 'Choose at least one user for a user prompt',
  noNul: 'must not contain NUL characters',
  // Toasts (part 8).
  deleted: 'Prompt deleted successfully',
  deleteFailed: 'Failed to delete prompt',
  created: 'Prompt created successfully',
  updated: 'Prompt updated successfully',
  saveFailed: 'Failed to save prompt',
  confirmDelete: 'Are you sure you want to delete this prompt?',
  inUse: 'This prompt is used by analysis patterns that could no longer run it',
  unknownVersion: 'This prompt has no such version',
} as const;

/** `Unknown variable {{name}}: use …`, the message for a variable the prompt text may not use. */
export const unknownVariableMessage = (name: string): string =>
  `${PROMPT_MESSAGES.unknownVariable} {{${name}}}: use ${PROMPT_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`;

export const PATTERN_MESSAGES = {
  promptNotAvailable: 'This prompt is not available to the company of the pattern',
  globalPattern: 'Global patterns are managed by the platform administrator',
  deleted: 'Pattern deleted successfully',
} as const;

/** The variables a prompt text names (`{{ name }}`, spaces allowed inside the braces), in order of first use. */
export function promptVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((m) => m[1]!))];
}

/** An expected-format range written `min-max` ("1-10", "-5-5"), or null when it is not one. */
export function parseRange(range: string): { min: number; max: number } | null {
  const match = /^\s*(-?\d{1,9})\s*-\s*(-?\d{1,9})\s*$/.exec(range);
  return match ? { min: Number(match[1]), max: Number(match[2]) } : null;
}
