import { z } from 'zod';
import { BUILT_IN_MODEL_ID, CHAT_LIMITS, CHAT_MESSAGES, MESSAGE_ROLES, MESSAGE_STATUSES } from '../constants';
import { Id, PageQuery, paginated } from '../common';

export const ConversationDto = z.object({
  _id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the last message was written (the list's order). */
  lastMessageAt: z.string().nullable(),
  /** The recording a conversation is about (a chat bound to one transcript), or null. */
  fileId: z.string().nullable(),
  /** The custom GPT the conversation is with, or null. */
  customGptId: z.string().nullable(),
});
export type ConversationDto = z.infer<typeof ConversationDto>;

export const ConversationListQuery = PageQuery.extend({
  /** Matches the title and the text of the conversation's messages. */
  search: z.string().trim().max(200).optional(),
}).strict();
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;
export const ConversationList = paginated(ConversationDto);
export type ConversationList = z.infer<typeof ConversationList>;

export const CreateConversationBody = z
  .object({
    title: z.string().trim().min(1).max(CHAT_LIMITS.titleMax).optional(),
    /** Binds the conversation to one recording the caller may see (404 otherwise): every answer is about it. */
    fileId: Id.optional(),
    /** A conversation with a custom GPT the caller may chat with (enabled, visible to them; 404 otherwise). */
    customGptId: Id.optional(),
  })
  .strict();
export const RenameConversationBody = z.object({ title: z.string().trim().min(1).max(CHAT_LIMITS.titleMax) }).strict();
export type CreateConversationBody = z.infer<typeof CreateConversationBody>;
export type RenameConversationBody = z.infer<typeof RenameConversationBody>;

/** A passage of a transcript that a reply quotes (stored before `kind` existed: it may be absent). */
export const TranscriptCitationDto = z.object({
  kind: z.literal('transcript').optional(),
  fileId: z.string(),
  fileName: z.string(),
  speaker: z.string(),
  /** Seconds from the start of the recording. */
  start: z.number(),
  text: z.string(),
  /** In-app link that opens the transcript at that moment: /transcripts/{fileId}?t={seconds}. */
  link: z.string(),
});
export type TranscriptCitationDto = z.infer<typeof TranscriptCitationDto>;

/** A passage of a custom GPT's knowledge file that a reply quotes. */
export const FileCitationDto = z.object({
  kind: z.literal('file'),
  /** The knowledge file's id: GET /custom-gpt/{customGptId}/files/{fileId} serves it. */
  fileId: z.string(),
  fileName: z.string(),
  /** From 1; absent for formats without pages. */
  page: z.number().int().min(1).optional(),
  /** The source's number in the answer ([1], [2]…). */
  index: z.number().int().min(1),
  quote: z.string(),
});
export type FileCitationDto = z.infer<typeof FileCitationDto>;

export const CitationDto = z.union([FileCitationDto, TranscriptCitationDto]);
export type CitationDto = z.infer<typeof CitationDto>;

export const UsageDto = z.object({
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
});
export type UsageDto = z.infer<typeof UsageDto>;

export const MessageDto = z.object({
  _id: z.string(),
  conversationId: z.string(),
  role: z.enum(MESSAGE_ROLES),
  content: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  /** For assistant messages: the model that wrote it ('built-in' for the search assistant). */
  model: z.string().nullable(),
  error: z.string().nullable(),
  citations: z.array(CitationDto),
  usage: UsageDto.nullable(),
  /** The caller's own feedback on this message, if any. */
  feedback: z.object({ rating: z.enum(['up', 'down']), comment: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type MessageDto = z.infer<typeof MessageDto>;
export const MessageList = z.object({ items: z.array(MessageDto) });
export type MessageList = z.infer<typeof MessageList>;

export const ChatStreamParams = z.object({ id: Id }).strict();
export const ChatStreamBody = z
  .object({
    message: z
      .string()
      .max(CHAT_LIMITS.messageMax, CHAT_MESSAGES.tooLong)
      .refine((m) => m.trim().length > 0, CHAT_MESSAGES.emptyMessage),
    /** A chat model id from GET /chat/models, or 'built-in'; absent = the default chat model. */
    modelId: z.union([Id, z.literal(BUILT_IN_MODEL_ID)]).optional(),
    /** Replace the conversation's last assistant reply instead of answering a new message. */
    regenerate: z.boolean().optional(),
  })
  .strict();
export type ChatStreamBody = z.infer<typeof ChatStreamBody>;

/**
 * POST /chat/analysis-conversations/chat/stream: a question about one recording. Without
 * `conversationId` a new conversation bound to `fileId` is started (the `start` event names it);
 * with one, it must be the caller's conversation about that same recording.
 */
export const AnalysisChatStreamBody = ChatStreamBody.extend({ fileId: Id, conversationId: Id.optional() }).strict();
export type AnalysisChatStreamBody = z.infer<typeof AnalysisChatStreamBody>;

/** GET /chat/conversationsByAnalysis/{fileId}: the recording and the caller's conversations about it, newest first. */
export const AnalysisConversations = z.object({
  transcript: z.object({ fileId: z.string(), fileName: z.string() }),
  items: z.array(ConversationDto),
});
export type AnalysisConversations = z.infer<typeof AnalysisConversations>;

/**
 * Server-Sent Events of POST /chat/conversations/{id}/chat/stream, each `event: <type>` with a
 * JSON `data:` line: `start` once, `delta` per piece of text, then exactly one of `done` or
 * `error` (the partial reply is stored either way).
 */
export const StreamStartEvent = z.object({
  userMessageId: z.string(),
  model: z.string(),
  builtIn: z.boolean(),
  title: z.string(),
  conversationId: z.string(),
  /** The question as stored and sent to the model: with the company's redaction on, what the detectors found reads as its label. */
  question: z.string(),
  /** How many card numbers, IBANs, national IDs, e-mail addresses or phone numbers redaction hid in the question. */
  redacted: z.number().int().nonnegative(),
});
export type StreamStartEvent = z.infer<typeof StreamStartEvent>;
export const StreamDeltaEvent = z.object({ text: z.string() });
export type StreamDeltaEvent = z.infer<typeof StreamDeltaEvent>;
export const StreamDoneEvent = z.object({
  messageId: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  usage: UsageDto.nullable(),
  citations: z.array(CitationDto),
});
export type StreamDoneEvent = z.infer<typeof StreamDoneEvent>;
export const StreamErrorEvent = z.object({ messageId: z.string().nullable(), message: z.string() });
export type StreamErrorEvent = z.infer<typeof StreamErrorEvent>;

export const ChatModelsDto = z.object({
  /** Enabled chat models; empty means the built-in search assistant answers. */
  models: z.array(z.object({ _id: z.string(), name: z.string(), isDefault: z.boolean() })),
  builtIn: z.boolean(),
});
export type ChatModelsDto = z.infer<typeof ChatModelsDto>;

export const FeedbackBody = z
  .object({
    messageId: Id,
    rating: z.enum(['up', 'down']),
    comment: z.string().trim().max(CHAT_LIMITS.commentMax).optional(),
  })
  .strict();
export type FeedbackBody = z.infer<typeof FeedbackBody>;
export const FeedbackDto = z.object({
  _id: z.string(),
  messageId: z.string(),
  rating: z.enum(['up', 'down']),
  comment: z.string().nullable(),
  updatedAt: z.string(),
});
export type FeedbackDto = z.infer<typeof FeedbackDto>;
