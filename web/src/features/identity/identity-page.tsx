// /identity, "Sign-in and provisioning": how a company's identity provider reaches Earshot. An
// ADMIN sees their company's; a HOST_ADMIN picks the company (kept in the URL as ?companyId=). The
// route guard keeps everyone else out (lib/roles.ts); the server checks again.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { ToastRegion, useToasts } from '../../components/toast';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { useFeatureTranslation } from '../../i18n/feature';
import { withParams } from '../../lib/search-params';
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
      {host ? <CompanyChoice companyId={companyId} /> : null}
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

/** The HOST_ADMIN's company picker; it writes ?companyId= so a reload or a link keeps the choice. */
function CompanyChoice({ companyId }: { companyId: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const options = useCompanyOptionsQuery();
  const [search, setSearch] = useSearchParams();
  return (
    <label className="mb-6 block">
      <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{t('identity.company')}</span>
      <select
        className={`${inputClass} pr-8 sm:w-56`}
        value={companyId ?? ''}
        onChange={(event) => setSearch(withParams(search, { companyId: event.target.value || null }))}
        data-testid="identity-company"
      >
        <option value="">{t('identity.pickCompany')}</option>
        {(options.data ?? []).map((company) => (
          <option key={company._id} value={company._id}>
            {company.name}
          </option>
        ))}
      </select>
    </label>
  );
}
