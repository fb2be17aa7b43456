// /identity, "Sign-in and provisioning": how a company's identity provider reaches Earshot. An
// ADMIN sees their company's; a HOST_ADMIN picks the company (kept in the URL as ?companyId=). The
// route guard keeps everyone else out (lib/roles.ts); the server checks again.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { CompanyChoice } from '../../entities/companies';
import { useFeatureTranslation } from '../../i18n/feature';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { ProvisioningChanges } from './provisioning-changes';
import { ScimTokens } from './scim-tokens';
import { catalogue } from './i18n';

export default function IdentityPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const user = useAppSelector((state) => state.session.user);
  const host = roleOf(user) === 'HOST_ADMIN';
  const [search] = useSearchParams();
  const companyId = host ? search.get('companyId') : (user?.companyId ?? null);
  const { toasts, show, dismiss } = useToasts();
  const notify = (ok: boolean, title: string, detail?: string | null) =>
    show({ kind: ok ? 'success' : 'error', title, detail });
  return (
    <div>
      <PageHeading>{t('identity.title')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('identity.intro')}</p>
      {host ? (
        <CompanyChoice
          companyId={companyId}
          label={t('identity.company')}
          placeholder={t('identity.pickCompany')}
          testId="identity-company"
          className="mb-6 block"
        />
      ) : null}
      {companyId ? (
        <>
          <ScimTokens companyId={companyId} notify={notify} />
          <ProvisioningChanges companyId={companyId} />
        </>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('identity.pickCompanyFirst')}</p>
      )}
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('identity.scim.close')} />
    </div>
  );
}
