// The platform administrator's first-run checklist: what a new platform lacks for good transcripts,
// analysis and mail, each step ticked from the same facts the pages that need it read, and each
// linking to where it is done. Gone once every step is done; hidden until all facts are known, so
// it never flashes a step as missing.
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './first-run-i18n';
import { useChatModelsQuery, useMailDeliveryQuery, useSpeechReadinessQuery } from './platform-api';

type Step = 'model' | 'whisper' | 'speakers' | 'mail';

const WHERE: Record<Step, string> = {
  model: '/ai-config',
  whisper: '/ai-config#speech-models',
  speakers: '/ai-config#speech-models',
  mail: '/email-templates?tab=outbox',
};

export default function FirstRunChecklist({ className = '' }: { className?: string }): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  // Fresh on every visit: the steps are done on other pages.
  const fresh = { refetchOnMountOrArgChange: true };
  const chat = useChatModelsQuery(undefined, fresh);
  const speech = useSpeechReadinessQuery(undefined, fresh);
  const mail = useMailDeliveryQuery(undefined, fresh);
  if (!chat.data || !speech.data || mail.data === undefined) return null;
  const done: Record<Step, boolean> = {
    model: !chat.data.builtIn,
    whisper: speech.data.whisper,
    speakers: speech.data.speakerSeparation,
    mail: mail.data,
  };
  const steps = Object.keys(WHERE) as Step[];
  if (steps.every((step) => done[step])) return null;
  return (
    <section
      aria-labelledby="first-run-title"
      className={`w-full max-w-xl rounded-2xl border border-gray-200 bg-white p-4 text-left shadow-sm dark:border-gray-800 dark:bg-gray-900 ${className}`}
      data-testid="first-run-checklist"
    >
      <h2 id="first-run-title" className="text-base font-semibold text-gray-900 dark:text-white">
        {t('firstRun.title')}
      </h2>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('firstRun.intro')}</p>
      <ul className="mt-3 flex flex-col divide-y divide-gray-100 dark:divide-gray-800">
        {steps.map((step) => (
          <li
            key={step}
            className="flex items-start gap-3 py-2.5"
            data-testid="first-run-step"
            data-step={step}
            data-done={done[step]}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border text-xs font-bold ${
                done[step]
                  ? 'border-green-600 bg-green-600 text-white dark:border-green-500 dark:bg-green-500 dark:text-gray-950'
                  : 'border-gray-400 text-transparent dark:border-gray-500'
              }`}
            >
              ✓
            </span>
            <div className="min-w-0 flex-1">
              <p
                className={`text-sm font-medium ${done[step] ? 'text-gray-500 line-through dark:text-gray-400' : 'text-gray-900 dark:text-white'}`}
              >
                {t(`firstRun.${step}`)}
                <span className="sr-only"> ({done[step] ? t('firstRun.done') : t('firstRun.toDo')})</span>
              </p>
              <p className="text-xs break-words text-gray-600 dark:text-gray-400">{t(`firstRun.${step}Hint`)}</p>
            </div>
            {done[step] ? null : (
              <Link
                to={WHERE[step]}
                className="shrink-0 rounded-lg border border-gray-300 px-3 py-1 text-xs font-medium text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
                aria-label={`${t('firstRun.open')}: ${t(`firstRun.${step}`)}`}
              >
                {t('firstRun.open')}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
