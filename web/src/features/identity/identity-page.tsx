// /identity: how a company's people sign in (its own identity provider) and are provisioned. An
// ADMIN works on their company; a HOST_ADMIN picks the company (kept in the URL as ?companyId=).
// The route guard keeps everyone else out (lib/roles.ts); the server checks again.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/text-field';
import { PageHeading } from '../../components/page-heading';
import { CompanyPicker } from '../../entities/companies';
import { useFeatureTranslation } from '../../i18n/feature';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { SsoSection } from './sso-section';
import { SsoSignIns } from './sso-sign-ins';
import { catalogue } from './i18n';

/** Where "Test sign-in" comes back to: this page, saying whom the provider signed in. */
export const TEST_RETURN = 'ssoTest';

export default function IdentityPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const user = useAppSelector((state) => state.session.user);
  const host = roleOf(user) === 'HOST_ADMIN';
  const [search] = useSearchParams();
  const companyId = host ? search.get('companyId') : (user?.companyId ?? null);
  return (
    <div>
      <PageHeading>{t('identity.title')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('identity.intro')}</p>
      {search.get(TEST_RETURN) && user ? (
        <div className="mb-6 max-w-3xl">
          <Alert tone="success" testId="sso-test-result">
            {t('identity.testOk', { email: user.email })}
          </Alert>
        </div>
      ) : null}
      {host ? (
        <div className="mb-6">
          <CompanyPicker
            companyId={companyId}
            label={t('identity.company')}
            placeholder={t('identity.pickCompany')}
            testId="identity-company"
          />
        </div>
      ) : null}
      {companyId ? (
        <div className="flex max-w-3xl flex-col gap-8">
          <SsoSection
            companyId={companyId}
            testReturn={`/identity?${TEST_RETURN}=1${host ? `&companyId=${companyId}` : ''}`}
          />
          <SsoSignIns companyId={companyId} />
        </div>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('identity.pickCompanyFirst')}</p>
      )}
    </div>
  );
}
