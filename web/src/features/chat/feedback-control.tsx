import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX, type Feedback, type Rating } from './model';

const THUMB = 'M7 11v9H4v-9h3zm0 0l4-8c1.7 0 3 1.3 3 3v3h5a2 2 0 0 1 2 2.3l-1.2 7A2 2 0 0 1 18.8 20H7';

function Thumb({ down }: { down?: boolean }): ReactElement {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinejoin="round"
      aria-hidden="true"
      className={`size-4 ${down ? 'rotate-180' : ''}`}
    >
      <path d={THUMB} />
    </svg>
  );
}

/**
 * Thumbs up/down on a reply; a click saves the rating at once and offers an optional comment.
 * `onSave` resolves to whether the server kept it. `children` (the reply's other actions, such as
 * Regenerate) stay on the thumbs' row: the comment box opens on its own row below, scrolled into view.
 */
export function FeedbackControl({
  feedback,
  onSave,
  children,
}: {
  feedback: Feedback | null;
  onSave: (rating: Rating, comment?: string) => Promise<boolean>;
  children?: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Rating | null>(null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // The box opens under the last reply, often below the visible part of the thread.
  useEffect(() => {
    if (editing) form.current?.scrollIntoView?.({ block: 'nearest' });
  }, [editing]);

  const save = async (rating: Rating, text?: string) => {
    setBusy(true);
    const ok = await onSave(rating, text?.trim() || undefined);
    setBusy(false);
    setFailed(!ok);
    return ok;
  };

  const rate = async (rating: Rating) => {
    if (await save(rating, feedback?.rating === rating ? (feedback.comment ?? undefined) : undefined)) {
      setComment(feedback?.rating === rating ? (feedback.comment ?? '') : '');
      setEditing(rating);
    }
  };

  const thumb = (rating: Rating) => {
    const pressed = feedback?.rating === rating;
    return (
      <button
        type="button"
        aria-pressed={pressed}
        aria-label={t(rating === 'up' ? 'chat.feedback.up' : 'chat.feedback.down')}
        title={t(rating === 'up' ? 'chat.feedback.up' : 'chat.feedback.down')}
        disabled={busy}
        onClick={() => void rate(rating)}
        data-testid={`feedback-${rating}`}
        className={`rounded-lg p-1.5 disabled:opacity-50 ${pressed ? 'bg-brand-100 text-brand-800 dark:bg-brand-900/60 dark:text-brand-100' : 'text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100'}`}
      >
        <Thumb down={rating === 'down'} />
      </button>
    );
  };

  return (
    <div className="flex w-full flex-col gap-2" data-testid="feedback">
      <div className="flex flex-wrap items-center gap-1">
        {thumb('up')}
        {thumb('down')}
        {feedback && !editing ? (
          <span className="ml-1 text-xs text-gray-500 dark:text-gray-400" data-testid="feedback-saved">
            {feedback.comment
              ? t('chat.feedback.savedWithComment', { comment: feedback.comment })
              : t('chat.feedback.saved')}
          </span>
        ) : null}
        {failed ? (
          <span role="alert" className="ml-1 text-xs text-red-700 dark:text-red-300">
            {t('chat.feedback.failed')}
          </span>
        ) : null}
        {children}
      </div>
      {editing ? (
        <form
          ref={form}
          className="flex w-full max-w-md flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void save(editing, comment).then((ok) => ok && setEditing(null));
          }}
        >
          <label className="text-xs text-gray-600 dark:text-gray-400">
            {t('chat.feedback.commentLabel')}
            <textarea
              value={comment}
              onChange={(event) => setComment(event.target.value)}
              maxLength={COMMENT_MAX}
              rows={2}
              data-testid="feedback-comment"
              className="mt-1 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:border-brand-500 focus:outline-none dark:border-gray-700 dark:bg-gray-900 dark:text-white"
            />
          </label>
          <div className="flex gap-2">
            <button
              type="submit"
              disabled={busy}
              data-testid="feedback-submit"
              className="rounded-lg bg-brand-600 px-3 py-1.5 text-xs font-medium text-on-brand hover:bg-brand-700 disabled:opacity-60"
            >
              {t('chat.feedback.submit')}
            </button>
            <button
              type="button"
              onClick={() => setEditing(null)}
              className="rounded-lg border border-gray-300 px-3 py-1.5 text-xs font-medium text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
            >
              {t('chat.feedback.skip')}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
