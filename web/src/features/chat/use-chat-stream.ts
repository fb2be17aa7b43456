// Sends a message (or regenerates the last reply) and follows the streamed answer. One stream at a
// time; it keeps running when the person opens another conversation, and its result shows there
// when they come back (the server stores it either way).
import { useCallback, useReducer, useRef, useState } from 'react';
import { session } from '../../lib/api';
import { useAppDispatch } from '../../lib/store';
import { chatApi } from './chat-api';
import { streamChat, type StreamOutcome } from './chat-stream';
import type { StreamBody } from './model';
import { pendingReducer, type PendingReply } from './pending-reply';

export interface SendArgs {
  conversationId: string;
  /** The recording the conversation is about, if it is about one. */
  fileId: string | null;
  request: StreamBody;
  userText: string | null;
  replacedId: string | null;
}

/** The question of the last reply whose numbers redaction hid, and how many: a notice shows under it. */
export interface RedactionNotice {
  conversationId: string;
  userMessageId: string;
  count: number;
}

export function useChatStream(): {
  pending: PendingReply | null;
  redaction: RedactionNotice | null;
  streaming: boolean;
  send: (args: SendArgs) => Promise<void>;
  stop: () => void;
  clear: () => void;
} {
  const dispatch = useAppDispatch();
  const [pending, update] = useReducer(pendingReducer, null);
  const [redaction, setRedaction] = useState<RedactionNotice | null>(null);
  const controller = useRef<AbortController | null>(null);

  const send = useCallback(
    async (args: SendArgs) => {
      if (controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      update({ type: 'begin', ...args });
      setRedaction(null);
      let sawEnd = false;
      const run = (): Promise<StreamOutcome> =>
        streamChat({
          session,
          dispatch,
          conversationId: args.conversationId,
          fileId: args.fileId,
          body: args.request,
          signal: abort.signal,
          onEvent: (event) => {
            if (event.type === 'done' || event.type === 'error') sawEnd = true;
            // The first message titles the conversation: show the title in the list straight away.
            if (event.type === 'start') dispatch(chatApi.util.invalidateTags(['Conversations']));
            if (event.type === 'start' && event.data.redacted > 0)
              setRedaction({
                conversationId: event.data.conversationId,
                userMessageId: event.data.userMessageId,
                count: event.data.redacted,
              });
            update({ type: 'event', event });
          },
        });
      try {
        const outcome = await run();
        if (outcome.kind === 'aborted') update({ type: 'aborted' });
        else if (outcome.kind === 'failed') update({ type: 'failed', message: outcome.message });
        else if (!sawEnd) update({ type: 'failed', message: null });
      } finally {
        controller.current = null;
        dispatch(chatApi.util.invalidateTags([{ type: 'Messages', id: args.conversationId }, 'Conversations']));
      }
    },
    [dispatch],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => update({ type: 'clear' }), []);
  return { pending, redaction, streaming: pending?.phase === 'streaming', send, stop, clear };
}
