import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { AssistantMessage, UserMessage, type ReplyView } from './assistant-message';
import { FeedbackControl } from './feedback-control';
import { BUILT_IN_MODEL_ID, type Message, type Rating } from './model';
import { storedBeside, type PendingReply } from './pending-reply';
import { RedactedNotice } from './redacted-notice';

function storedReply(message: Message): ReplyView {
  return {
    text: message.content,
    phase: message.status,
    error: message.error,
    builtIn: message.model === BUILT_IN_MODEL_ID,
    citations: message.citations,
  };
}

function pendingView(pending: PendingReply): ReplyView {
  return {
    text: pending.text,
    phase: pending.phase === 'done' ? 'complete' : pending.phase,
    error: pending.error,
    builtIn: pending.builtIn,
    citations: [],
  };
}

const actionClass =
  'rounded-lg px-2 py-1 text-xs font-medium text-gray-600 hover:bg-gray-100 hover:text-gray-900 disabled:opacity-50 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100';

/** The conversation: stored messages, then the reply being written (if it is this conversation's). */
export function MessageThread({
  items,
  pending,
  busy,
  gptId,
  onRegenerate,
  onRetryPending,
  onFeedback,
  redaction = null,
}: {
  items: Message[];
  /** The conversation's custom GPT: its file citations link to its files. */
  gptId: string | null;
  pending: PendingReply | null;
  /** A reply is being written (here or elsewhere): no regenerate meanwhile. */
  busy: boolean;
  onRegenerate: (reply: Message) => void;
  onRetryPending: () => void;
  onFeedback: (messageId: string, rating: Rating, comment?: string) => Promise<boolean>;
  /** The question whose numbers redaction hid, shown with a notice under it. */
  redaction?: { userMessageId: string; count: number } | null;
}): ReactElement {
  const { t } = useTranslation();
  const shown = storedBeside(items, pending);
  const lastAssistant = pending ? null : [...shown].reverse().find((message) => message.role === 'assistant');
  const isLast = (message: Message) => message === shown[shown.length - 1];
  // Regenerate (or retry) the last reply: next to the thumbs, wherever the comment box opens.
  const regenerate = (message: Message) =>
    message === lastAssistant && isLast(message) ? (
      <button
        type="button"
        disabled={busy}
        onClick={() => onRegenerate(message)}
        className={`${actionClass} ml-1`}
        data-testid={message.status === 'failed' ? 'reply-retry' : 'regenerate'}
      >
        {t(message.status === 'failed' ? 'chat.retry' : 'chat.regenerate')}
      </button>
    ) : null;

  return (
    <div className="flex flex-col gap-5" data-testid="message-thread">
      {shown.map((message) =>
        message.role === 'user' ? (
          <UserMessage key={message._id} text={message.content}>
            {redaction?.userMessageId === message._id ? <RedactedNotice count={redaction.count} /> : null}
          </UserMessage>
        ) : (
          <AssistantMessage
            key={message._id}
            reply={storedReply(message)}
            gptId={gptId}
            actions={
              message.status === 'failed' ? (
                <div className="flex">{regenerate(message)}</div>
              ) : (
                <FeedbackControl
                  feedback={message.feedback}
                  onSave={(rating, comment) => onFeedback(message._id, rating, comment)}
                >
                  {regenerate(message)}
                </FeedbackControl>
              )
            }
          />
        ),
      )}
      {pending ? (
        <>
          {pending.userText !== null ? (
            <UserMessage text={pending.userText}>
              {redaction && redaction.userMessageId === pending.userMessageId ? (
                <RedactedNotice count={redaction.count} />
              ) : null}
            </UserMessage>
          ) : null}
          <AssistantMessage
            reply={pendingView(pending)}
            gptId={gptId}
            actions={
              pending.phase === 'failed' ? (
                <button
                  type="button"
                  disabled={busy}
                  onClick={onRetryPending}
                  className={actionClass}
                  data-testid="reply-retry"
                >
                  {t('chat.retry')}
                </button>
              ) : null
            }
          />
        </>
      ) : null}
    </div>
  );
}
