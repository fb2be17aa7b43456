// Constants of custom GPTs and their knowledge files (zod-free, so the console may import them).

/** Who may chat with a GPT: the whole company, only its creator, or the people chosen. */
export const GPT_VISIBILITIES = ['company', 'private', 'users'] as const;
export type GptVisibility = (typeof GPT_VISIBILITIES)[number];

/** A platform GPT (HOST_ADMIN's, offered to every or chosen companies) or one company's. */
export const GPT_SCOPES = ['platform', 'company'] as const;
export type GptScope = (typeof GPT_SCOPES)[number];

/** A knowledge file's way through processing; `ready` and `failed` are final. */
export const KNOWLEDGE_FILE_STATUSES = ['queued', 'extracting', 'indexing', 'ready', 'failed'] as const;
export type KnowledgeFileStatus = (typeof KNOWLEDGE_FILE_STATUSES)[number];

/** The only upload type today (`?type=knowledge`). */
export const KNOWLEDGE_UPLOAD_TYPES = ['knowledge'] as const;

/** Formats a knowledge file may have, recognised by content (never by name or client type alone). */
export const KNOWLEDGE_FORMATS = ['pdf', 'docx', 'txt', 'markdown', 'csv', 'html'] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

/** What the file picker offers (the server decides by content). */
export const KNOWLEDGE_ACCEPT = '.pdf,.docx,.txt,.md,.markdown,.csv,.html,.htm';

export const GPT_LIMITS = {
  nameMax: 120,
  descriptionMax: 1_000,
  instructionsMax: 20_000,
  startersMax: 6,
  starterMax: 200,
  /** People a 'users' GPT is shown to, companies a platform GPT is offered to. */
  audienceMax: 500,
  /** Largest knowledge file (bytes). */
  fileMaxBytes: 20 * 1024 * 1024,
  /** Knowledge files per GPT. */
  filesPerGpt: 100,
  fileNameMax: 255,
} as const;

/** The label of the built-in search assistant's answers from a GPT's files. */
export const GPT_MESSAGES = {
  notSupported: `Knowledge files must be PDF, DOCX, TXT, Markdown, CSV or HTML`,
  mismatch: 'The file content does not match its name or type',
  tooLarge: `A knowledge file can be at most ${GPT_LIMITS.fileMaxBytes / 1024 / 1024} MB`,
  tooMany: `A custom GPT can have at most ${GPT_LIMITS.filesPerGpt} knowledge files`,
  noFile: 'Choose a file to upload',
  noTextLayer: 'This PDF has no text layer',
  encrypted: 'This PDF is password-protected: remove the password and upload it again',
  unreadable: 'The file could not be read',
  noText: 'The file contains no text',
  deleted: 'Custom GPT deleted',
  fileDeleted: 'Knowledge file deleted',
  companyIdsHostOnly: 'Only a platform administrator can offer a GPT to companies',
  usersRequired: 'Choose at least one person for a GPT shown to chosen people',
  readOnly: 'This GPT is managed by the platform: it can be used, not changed',
  notAvailable: 'This custom GPT is not available',
  restarted: 'Processing was interrupted; it starts again',
} as const;

/** The suffix a duplicated GPT's name gets. */
export const GPT_COPY_SUFFIX = ' (copy)';
