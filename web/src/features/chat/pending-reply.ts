// The reply being written (or just finished) in one conversation, shown on top of the stored
// messages until the server's list has it. Pure, so the merge rules are unit tested.
import type { Message, StreamBody, StreamEvent } from './model';

export interface PendingReply {
  conversationId: string;
  request: StreamBody;
  /** The person's new message, shown until the list has it; null when regenerating. */
  userText: string | null;
  /** Known once the server stored the person's message (`start`). */
  userMessageId: string | null;
  /** Regenerate/retry: the stored reply that this one replaces (hidden meanwhile). */
  replacedId: string | null;
  /** The stored reply's id, once `done` or `error` names it. */
  messageId: string | null;
  text: string;
  phase: 'streaming' | 'stopped' | 'failed' | 'done';
  builtIn: boolean;
  error: string | null;
}

export type PendingAction =
  | { type: 'begin'; conversationId: string; request: StreamBody; userText: string | null; replacedId: string | null }
  | { type: 'event'; event: StreamEvent }
  | { type: 'aborted' }
  | { type: 'failed'; message: string | null }
  | { type: 'clear' };

export function pendingReducer(state: PendingReply | null, action: PendingAction): PendingReply | null {
  if (action.type === 'begin') {
    const { conversationId, request, userText, replacedId } = action;
    return {
      conversationId,
      request,
      userText,
      replacedId,
      userMessageId: null,
      messageId: null,
      text: '',
      phase: 'streaming',
      builtIn: false,
      error: null,
    };
  }
  if (action.type === 'clear' || !state) return null;
  if (action.type === 'aborted') return state.phase === 'streaming' ? { ...state, phase: 'stopped' } : state;
  if (action.type === 'failed')
    return state.phase === 'streaming' ? { ...state, phase: 'failed', error: action.message } : state;
  const { event } = action;
  switch (event.type) {
    case 'start':
      return {
        ...state,
        userMessageId: event.data.userMessageId,
        builtIn: event.data.builtIn,
        // Redaction hid something: the question shows as it was stored and sent, with its labels.
        userText: state.userText !== null && event.data.redacted > 0 ? event.data.question : state.userText,
      };
    case 'delta':
      return { ...state, text: state.text + event.data.text };
    case 'done':
      return {
        ...state,
        messageId: event.data.messageId,
        phase: event.data.status === 'complete' ? 'done' : event.data.status,
      };
    case 'error':
      return { ...state, messageId: event.data.messageId, phase: 'failed', error: event.data.message };
  }
}

/** The stored list now holds the finished reply: the pending one can go. */
export function isCovered(items: Message[], pending: PendingReply): boolean {
  if (pending.phase === 'streaming') return false;
  if (pending.messageId && items.some((item) => item._id === pending.messageId)) return true;
  if (!pending.userMessageId) return false;
  const at = items.findIndex((item) => item._id === pending.userMessageId);
  return at !== -1 && items.slice(at + 1).some((item) => item.role === 'assistant' && item._id !== pending.replacedId);
}

/** The stored messages to show next to a pending reply (without the ones it stands for). */
export function storedBeside(items: Message[], pending: PendingReply | null): Message[] {
  if (!pending) return items;
  const { userMessageId, replacedId } = pending;
  return items.filter((item) => item._id !== replacedId && !(pending.userText !== null && item._id === userMessageId));
}
