import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { OutboxTab } from './outbox-tab';
import { TemplatesTab } from './templates-tab';

const TABS = ['templates', 'outbox'] as const;

/** /email-templates (HOST_ADMIN): the e-mail templates, and the outgoing mail (?tab=outbox). */
export default function EmailTemplatesPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'outbox' ? 'outbox' : 'templates';
  const { toasts, show, dismiss } = useToasts();
  const notify = (kind: 'success' | 'error', title: string, detail?: string | null) => show({ kind, title, detail });

  return (
    <div>
      <PageHeading>{t('pages.emailTemplates')}</PageHeading>
      <div
        role="tablist"
        aria-label={t('pages.emailTemplates')}
        className="mb-5 flex gap-2 border-b border-gray-200 dark:border-gray-800"
      >
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setSearch(name === 'outbox' ? { tab: name } : {})}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${tab === name ? 'border-brand-500 text-brand-700 dark:text-brand-300' : 'border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white'}`}
          >
            {t(`email.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">{tab === 'outbox' ? <OutboxTab /> : <TemplatesTab notify={notify} />}</div>
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('email.close')} />
    </div>
  );
}
