import { useState, type FormEvent, type ReactElement } from 'react';
import { ROLES, USER_STATUSES } from '@earshot/contracts/constants';
import { fieldInputClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import type { UserFilters } from './users-api';

const label = 'flex flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400';

/** Search (applied on Enter), role, status and, for a HOST_ADMIN, company (applied at once). */
export function UsersFilters({
  value,
  companies,
  onChange,
}: {
  value: UserFilters;
  companies: Array<{ _id: string; name: string }> | null;
  onChange: (next: UserFilters) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [q, setQ] = useState(value.q ?? '');
  const set = (patch: Partial<UserFilters>) => onChange({ ...value, ...patch, page: 1 });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: q.trim() || undefined });
  };
  return (
    <form
      role="search"
      aria-label={t('users.filters')}
      onSubmit={submit}
      className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4"
    >
      <label className={label}>
        {t('users.search')}
        <input
          type="search"
          className={fieldInputClass}
          value={q}
          onChange={(event) => setQ(event.target.value)}
          onBlur={() => set({ q: q.trim() || undefined })}
        />
      </label>
      <label className={label}>
        {t('users.columns.role')}
        <select
          className={fieldInputClass}
          value={value.role ?? ''}
          onChange={(event) => set({ role: (event.target.value || undefined) as UserFilters['role'] })}
        >
          <option value="">{t('users.allRoles')}</option>
          {ROLES.filter((role) => companies !== null || role !== 'HOST_ADMIN').map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        {t('users.columns.status')}
        <select
          className={fieldInputClass}
          value={value.status ?? ''}
          onChange={(event) => set({ status: (event.target.value || undefined) as UserFilters['status'] })}
        >
          <option value="">{t('users.allStatuses')}</option>
          {USER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`users.status.${status}`)}
            </option>
          ))}
        </select>
      </label>
      {companies && (
        <label className={label}>
          {t('users.columns.company')}
          <select
            className={fieldInputClass}
            value={value.companyId ?? ''}
            onChange={(event) => set({ companyId: event.target.value || undefined })}
          >
            <option value="">{t('users.allCompanies')}</option>
            {companies.map((company) => (
              <option key={company._id} value={company._id}>
                {company.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </form>
  );
}
