import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { inputClass } from '../../components/form-parts';
import { withParams } from '../../lib/search-params';
import { useCompanyOptionsQuery } from './company-options';

/**
 * The HOST_ADMIN's company picker of a page that works on one company; it writes ?companyId= so a
 * reload or a link keeps the choice. The page names it in its own words.
 */
export function CompanyChoice({
  companyId,
  label,
  placeholder,
  testId,
  className,
}: {
  companyId: string | null;
  label: string;
  placeholder: string;
  testId: string;
  className?: string;
}): ReactElement {
  const options = useCompanyOptionsQuery();
  const [search, setSearch] = useSearchParams();
  return (
    <label className={className}>
      <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{label}</span>
      <select
        className={`${inputClass} pr-8 sm:w-56`}
        value={companyId ?? ''}
        onChange={(event) => setSearch(withParams(search, { companyId: event.target.value || null }))}
        data-testid={testId}
      >
        <option value="">{placeholder}</option>
        {(options.data ?? []).map((company) => (
          <option key={company._id} value={company._id}>
            {company.name}
          </option>
        ))}
      </select>
    </label>
  );
}
