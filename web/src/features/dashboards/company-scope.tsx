// Whose dashboard: a HOST_ADMIN picks a company (kept in the address as ?companyId=, which the
// API requires of them); everyone else always sees their own company.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { catalogue } from './i18n';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CompanyScope {
  host: boolean;
  /** The company a HOST_ADMIN chose; undefined for everyone else (the server uses theirs). */
  companyId: string | undefined;
  /** A HOST_ADMIN who has not chosen yet: nothing to ask for. */
  waiting: boolean;
}

export function useCompanyScope(): CompanyScope {
  const role = useAppSelector((state) => roleOf(state.session.user));
  const [search] = useSearchParams();
  const host = role === 'HOST_ADMIN';
  const chosen = search.get('companyId') ?? '';
  const companyId = host && ID.test(chosen) ? chosen : undefined;
  return { host, companyId, waiting: host && !companyId };
}

/** The HOST_ADMIN's company picker; choosing one clears the filters that belonged to the other. */
export function CompanyPicker({
  companyId,
  clear = [],
}: {
  companyId: string | undefined;
  clear?: string[];
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const options = useCompanyOptionsQuery();
  const [search, setSearch] = useSearchParams();
  const pick = (value: string) =>
    setSearch(withParams(search, { companyId: value || null, ...Object.fromEntries(clear.map((key) => [key, null])) }));
  return (
    <label>
      <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {t('dashboards.company')}
      </span>
      <select
        className={`${inputClass} pr-8 sm:w-56`}
        value={companyId ?? ''}
        onChange={(event) => pick(event.target.value)}
        data-testid="dashboard-company"
      >
        <option value="">{t('dashboards.pickCompany')}</option>
        {(options.data ?? []).map((company) => (
          <option key={company._id} value={company._id}>
            {company.name}
          </option>
        ))}
      </select>
    </label>
  );
}
