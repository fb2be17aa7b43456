// /data-policies (ADMIN): their company's data policies, read-only (the platform
// administrator sets them on the company, the company's ADMIN sees them). An ADMIN has no page of
// their company's own otherwise: the company dialog is the platform administrator's.
import type { ReactElement } from 'react';
import type { RetentionPolicy } from '@earshot/contracts';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useAppSelector } from '../../lib/store';
import { useCompanyPoliciesQuery } from './companies-api';
import { catalogue as ownCatalogue } from './own-policies-i18n';
import { EncryptionProgress } from './policies-encryption';
import { catalogue } from './policies-i18n';

const RETENTION = ['recordingsDays', 'chatsDays', 'auditDays'] as const satisfies readonly (keyof RetentionPolicy)[];
const card = 'rounded-2xl border border-gray-200 bg-white p-5 dark:border-gray-800 dark:bg-gray-900';

export default function DataPoliciesPage(): ReactElement {
  const { t } = useFeatureTranslation(ownCatalogue, catalogue);
  const companyId = useAppSelector((state) => state.session.user?.companyId ?? null);
  const policies = useCompanyPoliciesQuery(companyId ?? '', { skip: !companyId });

  let body: ReactElement;
  if (!companyId) body = <p className="text-sm text-gray-600 dark:text-gray-400">{t('ownPolicies.noCompany')}</p>;
  else if (policies.isLoading) body = <PageSpinner label={t('common.loading')} />;
  else if (!policies.data)
    body = (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {errorMessage(policies.error) ?? t('policies.loadFailed')}
      </p>
    );
  else {
    const data = policies.data;
    const rows: Array<[label: string, value: string, key: string]> = [
      [t('policies.redaction'), t(`policies.modes.${data.redaction}`), 'redaction'],
      [t('ownPolicies.keepOriginal'), t(data.keepOriginal ? 'ownPolicies.on' : 'ownPolicies.off'), 'keepOriginal'],
      [t('ownPolicies.encryption'), t(data.encryption ? 'ownPolicies.on' : 'ownPolicies.off'), 'encryption'],
      ...RETENTION.map((key): [string, string, string] => {
        const days = data.retention[key];
        return [
          t(`policies.${key}`),
          days === null ? t('ownPolicies.forever') : t('ownPolicies.days', { count: days }),
          key,
        ];
      }),
    ];
    body = (
      <dl className="divide-y divide-gray-200 dark:divide-gray-800" data-testid="own-policies">
        {rows.map(([label, value, key]) => (
          <div key={key} className="flex flex-col gap-1 py-3 sm:flex-row sm:justify-between sm:gap-6">
            <dt className="text-sm text-gray-600 dark:text-gray-400">{label}</dt>
            <dd className="text-sm font-medium text-gray-900 dark:text-white" data-testid={`own-policy-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <div>
      <PageHeading>{t('policies.title')}</PageHeading>
      <section className={`${card} max-w-3xl`} aria-label={t('policies.title')}>
        <p className="mb-3 text-sm text-gray-600 dark:text-gray-400">{t('ownPolicies.intro')}</p>
        {body}
        {companyId && policies.data && (
          <div className="mt-4">
            <EncryptionProgress companyId={companyId} />
          </div>
        )}
      </section>
    </div>
  );
}
