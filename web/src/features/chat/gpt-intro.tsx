// The conversation's custom GPT: a line naming it above the messages, or, on an empty
// conversation, its picture, description and conversation starters (pressed: sent as the first
// question). Lazy, like the picker.
import type { ReactElement } from 'react';
import { NameAvatar } from '../../components/name-avatar';
import { useFeatureTranslation } from '../../i18n/feature';
import { useChatGptOptionsQuery } from './gpt-api';
import { catalogue } from './gpt-i18n';

export default function GptIntro({
  gptId,
  empty,
  onStarter,
}: {
  gptId: string;
  empty: boolean;
  onStarter: (text: string) => void;
}): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const options = useChatGptOptionsQuery();
  const gpt = options.data?.find((option) => option._id === gptId);
  if (options.isLoading) return null;
  if (!gpt)
    return (
      <p role="alert" className="text-sm text-amber-800 dark:text-amber-200" data-testid="gpt-unavailable">
        {t('unavailable')}
      </p>
    );
  if (!empty) {
    return (
      <div className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300" data-testid="gpt-banner">
        <NameAvatar name={gpt.name} src={gpt.avatar} size="sm" />
        <span className="min-w-0 truncate">{t('chattingWith', { name: gpt.name })}</span>
      </div>
    );
  }
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 px-2 text-center" data-testid="gpt-intro">
      <NameAvatar name={gpt.name} src={gpt.avatar} size="lg" />
      <h1 id="page-heading" className="text-2xl font-semibold text-gray-900 dark:text-white">
        {gpt.name}
      </h1>
      {gpt.description ? <p className="max-w-xl text-sm text-gray-600 dark:text-gray-400">{gpt.description}</p> : null}
      {gpt.starters.length > 0 ? (
        <div className="mt-2 w-full max-w-2xl">
          <p className="mb-2 text-xs font-semibold text-gray-600 dark:text-gray-400">{t('starters')}</p>
          <ul className="grid gap-2 sm:grid-cols-2">
            {gpt.starters.map((starter) => (
              <li key={starter}>
                <button
                  type="button"
                  onClick={() => onStarter(starter)}
                  className="h-full w-full rounded-xl border border-gray-200 bg-white px-3 py-2 text-left text-sm text-gray-800 hover:border-brand-400 hover:bg-brand-50 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-200 dark:hover:bg-gray-800"
                  data-testid="gpt-starter"
                >
                  {starter}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
