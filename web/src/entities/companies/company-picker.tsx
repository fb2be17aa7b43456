// The HOST_ADMIN's company picker of a company's settings page: it writes ?companyId= so a reload or
// a link keeps the choice. The page gives its own label and placeholder.
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { inputClass } from '../../components/form-parts';
import { withParams } from '../../lib/search-params';
import { useCompanyOptionsQuery } from './company-options';

export function CompanyPicker({
  companyId,
  label,
  placeholder,
  testId,
}: {
  companyId: string | null;
  label: string;
  placeholder: string;
  testId: string;
}): ReactElement {
  const options = useCompanyOptionsQuery();
  const [search, setSearch] = useSearchParams();
  return (
    <label>
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
