import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Citation } from './model';

const MessageMarkdown = lazy(() => import('./message-markdown'));
// Only replies with sources need this: it stays out of the signed-in shell's bundle.
const Sources = lazy(() => import('./sources'));

export interface ReplyView {
  text: string;
  phase: 'streaming' | 'complete' | 'stopped' | 'failed';
  error: string | null;
  builtIn: boolean;
  citations: Citation[];
}

/** A reply of the assistant: markdown (sanitised), its state, sources and the actions under it. */
export function AssistantMessage({
  reply,
  actions,
  gptId = null,
}: {
  reply: ReplyView;
  actions?: ReactNode;
  gptId?: string | null;
}): ReactElement {
  const { t } = useTranslation();
  const streaming = reply.phase === 'streaming';
  return (
    <article
      className="flex max-w-3xl flex-col gap-2"
      data-testid="assistant-message"
      data-phase={reply.phase}
      aria-busy={streaming}
    >
      {reply.builtIn ? (
        <span
          className="w-fit rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
          data-testid="built-in-badge"
        >
          {t('chat.builtInBadge')}
        </span>
      ) : null}
      <div className="rounded-2xl rounded-tl-sm border border-gray-200 bg-white px-4 py-3 text-gray-900 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-100">
        {reply.text ? (
          <Suspense
            fallback={
              <p className="text-sm whitespace-pre-wrap" data-testid="assistant-text">
                {reply.text}
              </p>
            }
          >
            <div data-testid="assistant-text">
              <MessageMarkdown text={reply.text} />
            </div>
          </Suspense>
        ) : streaming ? (
          <p className="text-sm text-gray-500 dark:text-gray-400">{t('chat.thinking')}</p>
        ) : null}
        {streaming && reply.text ? (
          <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-gray-400 align-middle" />
        ) : null}
        {reply.phase === 'stopped' ? (
          <p className="mt-2 text-xs font-medium text-gray-500 dark:text-gray-400" data-testid="stopped-mark">
            {t('chat.stopped')}
          </p>
        ) : null}
        {reply.phase === 'failed' ? (
          <div
            role="alert"
            className={`${reply.text ? 'mt-2' : ''} rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200`}
            data-testid="reply-error"
          >
            <p className="font-medium">{t('chat.replyFailed')}</p>
            {reply.error ? <p className="mt-1 text-xs">{reply.error}</p> : null}
          </div>
        ) : null}
        {reply.citations.length > 0 && !streaming ? (
          <Suspense fallback={null}>
            <Sources citations={reply.citations} gptId={gptId} />
          </Suspense>
        ) : null}
      </div>
      {actions}
    </article>
  );
}

export function UserMessage({ text, children }: { text: string; children?: ReactNode }): ReactElement {
  const message = (
    <div
      className="ml-auto max-w-2xl rounded-2xl rounded-tr-sm bg-brand-600 px-4 py-3 text-sm whitespace-pre-wrap text-on-brand"
      data-testid="user-message"
    >
      {text}
    </div>
  );
  // What goes under the question (a redaction notice) sits below its bubble, on the same side.
  if (!children) return message;
  return (
    <div className="ml-auto flex max-w-2xl flex-col items-end gap-1">
      {message}
      {children}
    </div>
  );
}
