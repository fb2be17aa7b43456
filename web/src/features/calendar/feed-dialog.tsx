// "Subscribe (iCalendar)": asks for a new secret feed address of the reader's own tasks and shows
// it with a copy button. There is no way to read the current address back (only its hash is kept),
// so every press makes a new one, and the dialog says the old one then stops.
import { useState, type ReactElement } from 'react';
import { FormDialog, secondaryButtonClass, submitButtonClass } from '../../components/form-dialog';
import { fieldInputClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useCalendarFeedMutation } from './calendar-api';
import { catalogue } from './i18n';

/** The address to give another calendar: the server's, made absolute when it is a path. */
function absolute(url: string): string {
  return url.startsWith('/') ? `${window.location.origin}${url}` : url;
}

export function FeedDialog({ onClose }: { onClose: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [createFeed, state] = useCalendarFeedMutation();
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = async () => {
    setCopied(false);
    const answer = await createFeed()
      .unwrap()
      .catch(() => null);
    if (answer) setUrl(absolute(answer.url));
  };
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <FormDialog title={t('calendarPage.feed.title')} onClose={onClose} testId="calendar-feed-dialog">
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('calendarPage.feed.intro')}</p>
      <p className="mt-2 text-sm font-medium text-amber-800 dark:text-amber-300" data-testid="calendar-feed-note">
        {t('calendarPage.feed.regenerateNote')}
      </p>
      {url ? (
        <div className="mt-4">
          <label
            htmlFor="calendar-feed-url"
            className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300"
          >
            {t('calendarPage.feed.address')}
          </label>
          <div className="flex gap-2">
            <input
              id="calendar-feed-url"
              readOnly
              value={url}
              className={`${fieldInputClass} font-mono`}
              onFocus={(event) => event.target.select()}
              data-testid="calendar-feed-url"
            />
            <button
              type="button"
              onClick={() => void copy()}
              className={secondaryButtonClass}
              data-testid="calendar-feed-copy"
            >
              {copied ? t('calendarPage.feed.copied') : t('calendarPage.feed.copy')}
            </button>
          </div>
        </div>
      ) : null}
      {state.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {errorMessage(state.error) ?? t('calendarPage.feed.failed')}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className={secondaryButtonClass}>
          {t('calendarPage.close')}
        </button>
        <button
          type="button"
          onClick={() => void create()}
          disabled={state.isLoading}
          className={submitButtonClass}
          data-testid="calendar-feed-create"
        >
          {url ? t('calendarPage.feed.again') : t('calendarPage.feed.create')}
        </button>
      </div>
    </FormDialog>
  );
}
