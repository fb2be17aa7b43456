// Whose figures a report shows: a HOST_ADMIN picks a company (kept in the URL as ?companyId=), an
// ADMIN sees their own company, anyone else only themselves.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { withParams } from '../../lib/search-params';
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

/** The HOST_ADMIN's company picker; it writes ?companyId= so a reload or a link keeps the choice. */
export function CompanyPicker({ companyId }: { companyId: string | null }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const options = useCompanyOptionsQuery();
  const [search, setSearch] = useSearchParams();
  return (
    <label className="print:hidden">
      <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{t('reports.company')}</span>
      <select
        className={`${inputClass} pr-8 sm:w-56`}
        value={companyId ?? ''}
        onChange={(event) => setSearch(withParams(search, { companyId: event.target.value || null }))}
        data-testid="report-company"
      >
        <option value="">{t('reports.pickCompany')}</option>
        {(options.data ?? []).map((company) => (
          <option key={company._id} value={company._id}>
            {company.name}
          </option>
        ))}
      </select>
    </label>
  );
}
