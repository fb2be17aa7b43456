// Constants of AI configuration, prompts, patterns and analysis runs (zod-free: the web's
// administration and analysis screens use them). A module of its own so the bundler can leave
// them out of the signed-in shell, which needs none of them.

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

/** Prompts (prompt service, /prompts). */
export const PROMPT_TYPES = [
  'summary',
  'sentiment',
  'topic',
  'question',
  'custom',
  'transcriptAnalysis',
  'contextAnalysis',
] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
/** A prompt's scope; a prompt may have none (stored null, shown as 'NA'). */
export const PROMPT_SCOPES = ['global', 'company', 'user', 'system'] as const;
export type PromptScope = (typeof PROMPT_SCOPES)[number];
/** The types of an expected-format field: `custom` is one of a list of options. */
export const FORMAT_FIELD_TYPES = ['string', 'integer', 'boolean', 'custom'] as const;
export type FormatFieldType = (typeof FORMAT_FIELD_TYPES)[number];
/** The variables a prompt text may use as `{{name}}`; anything else is refused at save. */
export const PROMPT_VARIABLES = [
  'transcript',
  'speakers',
  'client.name',
  'recording.date',
  'recording.duration',
  'language',
] as const;
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
  // The spec's expected-format messages, word for word: the console shows them as they are.
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
  // Toasts.
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

/** Analysis runs (prompt service, /analysis/transcripts). */
export const ANALYSIS_RUN_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type AnalysisRunStatus = (typeof ANALYSIS_RUN_STATUSES)[number];

/** Error codes of analysis runs the console turns into something to do (e.g. a link to AI Configuration). */
export const ANALYSIS_ERROR_CODES = {
  noChatModel: 'NO_CHAT_MODEL',
  transcriptNotReady: 'TRANSCRIPT_NOT_READY',
} as const;

/** The format of a prompt without an expected format: its result is `{answer: '…'}`. */
export const FREE_ANSWER_FIELD = { name: 'answer', type: 'string', description: 'The answer, in Markdown' } as const;

export const ANALYSIS_MESSAGES = {
  noChatModel: 'No chat model is configured: the platform administrator adds one in AI Configuration',
  transcriptNotReady: 'This transcript is not ready yet: analysis runs once it is complete',
  promptOrPattern: 'Choose a prompt or a pattern (one of promptId and patternId)',
  invalidAnswer: "The model's answer did not match the expected format",
  interrupted: 'The service stopped while this analysis was running: run it again',
  deleted: 'Analysis deleted successfully',
  noTranscriptText: 'This transcript has no text to analyse',
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
