// Shapes of the chat service's answers that this feature reads. They mirror
// packages/contracts/src/api/chat.ts (the web app does not import the server contracts: zod would
// land in the bundle); contract-types.test.ts fails when the two drift apart.

export const BUILT_IN_MODEL_ID = 'built-in';
export const MESSAGE_MAX = 20_000;
export const TITLE_MAX = 200;
export const COMMENT_MAX = 2_000;
/** Wait this long after the last keystroke before searching the conversations. */
export const SEARCH_DEBOUNCE_MS = 300;
export const CONVERSATION_PAGE_SIZE = 50;
/** The largest page the server gives. */
export const CONVERSATION_PAGE_MAX = 200;

export type Rating = 'up' | 'down';
export type MessageStatus = 'complete' | 'stopped' | 'failed';

export interface Conversation {
  _id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  lastMessageAt: string | null;
}

export interface ConversationList {
  items: Conversation[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface Citation {
  fileId: string;
  fileName: string;
  speaker: string;
  start: number;
  text: string;
  link: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface Feedback {
  rating: Rating;
  comment: string | null;
}

export interface Message {
  _id: string;
  conversationId: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  model: string | null;
  error: string | null;
  citations: Citation[];
  usage: Usage | null;
  feedback: Feedback | null;
  createdAt: string;
}

export interface ChatModels {
  models: Array<{ _id: string; name: string; isDefault: boolean }>;
  builtIn: boolean;
}

export interface StreamBody {
  message: string;
  modelId?: string;
  regenerate?: boolean;
}

export interface StreamStart { userMessageId: string; model: string; builtIn: boolean; title: string }
export interface StreamDelta { text: string }
export interface StreamDone { messageId: string; status: MessageStatus; usage: Usage | null; citations: Citation[] }
export interface StreamError { messageId: string | null; message: string }

export type StreamEvent =
  | { type: 'start'; data: StreamStart }
  | { type: 'delta'; data: StreamDelta }
  | { type: 'done'; data: StreamDone }
  | { type: 'error'; data: StreamError };
