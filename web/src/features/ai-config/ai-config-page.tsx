import { Suspense, type ReactElement } from 'react';
import { FirstRunChecklist } from '../../entities/platform';
import { PageHeading } from '../../components/page-heading';
import { ModelsSection } from './models-section';
import { ProvidersSection } from './providers-section';
import { SpeechModelsSection } from './speech-models-section';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/** /ai-config (HOST_ADMIN): the AI providers (OpenAI-compatible endpoints) and their models. */
export default function AiConfigPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <div>
      <PageHeading>{t('pages.aiConfig')}</PageHeading>
      <p className="-mt-4 mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('aiConfig.intro')}</p>
      <Suspense fallback={null}>
        <FirstRunChecklist className="mb-8" />
      </Suspense>
      <ProvidersSection />
      <ModelsSection />
      <SpeechModelsSection />
    </div>
  );
}
