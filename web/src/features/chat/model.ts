// The chat service's answers are the contracts' types (type-only imports: no zod in the bundle);
// this file adds the screen's own constants.
import type {
  MessageDto,
  StreamDeltaEvent,
  StreamDoneEvent,
  StreamErrorEvent,
  StreamStartEvent,
} from '@earshot/contracts';
import { CHAT_LIMITS, PAGE_SIZE_MAX } from '@earshot/contracts/constants';

export type {
  ChatModelsDto as ChatModels,
  ChatStreamBody as StreamBody,
  CitationDto as Citation,
  ConversationDto as Conversation,
  ConversationList,
  CustomGptOption as GptOption,
  FileCitationDto as FileCitation,
  MessageDto as Message,
  MessageList,
} from '@earshot/contracts';
export { BUILT_IN_MODEL_ID } from '@earshot/contracts/constants';

export const MESSAGE_MAX = CHAT_LIMITS.messageMax;
export const TITLE_MAX = CHAT_LIMITS.titleMax;
export const COMMENT_MAX = CHAT_LIMITS.commentMax;
/** Wait this long after the last keystroke before searching the conversations. */
export const SEARCH_DEBOUNCE_MS = 300;
export const CONVERSATION_PAGE_SIZE = 50;
/** The largest page the server gives. */
export const CONVERSATION_PAGE_MAX = PAGE_SIZE_MAX;

export type Feedback = NonNullable<MessageDto['feedback']>;
export type Rating = Feedback['rating'];

/** The stream's events as `event: <type>` names them. */
export type StreamEvent =
  | { type: 'start'; data: StreamStartEvent }
  | { type: 'delta'; data: StreamDeltaEvent }
  | { type: 'done'; data: StreamDoneEvent }
  | { type: 'error'; data: StreamErrorEvent };
