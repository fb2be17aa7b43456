// Whose figures a report shows: a HOST_ADMIN picks a company (kept in the URL as ?companyId=), an
// ADMIN sees their own company, anyone else only themselves.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useFeatureTranslation } from '../../i18n/feature';
import { CompanyChoice } from '../../entities/companies';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { catalogue } from './i18n';

export type Scope =
  { kind: 'host'; companyId: string | null } | { kind: 'company'; companyId: string } | { kind: 'self' };

export function useReportScope(): Scope {
  const user = useAppSelector((state) => state.session.user);
  const [search] = useSearchParams();
  const role = roleOf(user);
  if (role === 'HOST_ADMIN') return { kind: 'host', companyId: search.get('companyId') };
  if (role === 'ADMIN' && user?.companyId) return { kind: 'company', companyId: user.companyId };
  return { kind: 'self' };
}

/** The HOST_ADMIN's company picker of the reports. */
export function CompanyPicker({ companyId }: { companyId: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <CompanyChoice
      companyId={companyId}
      label={t('reports.company')}
      placeholder={t('reports.pickCompany')}
      testId="report-company"
      className="print:hidden"
    />
  );
}
