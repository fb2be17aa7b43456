import { useState, type FormEvent, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import type { AuditFilters, FilterKey } from './model';

const input =
  'w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-900 dark:text-white';
const label = 'flex flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400';

/** The filter form. It edits a draft; Apply puts it in the URL (the page re-reads from there). */
export function AuditFiltersForm({
  value,
  companies,
  onApply,
}: {
  value: AuditFilters;
  companies: Array<{ _id: string; name: string }>;
  onApply: (filters: AuditFilters) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [draft, setDraft] = useState<AuditFilters>(value);
  const field = (key: FilterKey) => ({
    value: draft[key] ?? '',
    onChange: (event: { target: { value: string } }) =>
      setDraft((current) => ({ ...current, [key]: event.target.value })),
    name: key,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form
      onSubmit={submit}
      role="search"
      aria-label={t('auditLog.filters.label')}
      className="mb-4 grid grid-cols-1 gap-3 rounded-2xl border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4 dark:border-gray-800 dark:bg-gray-900"
    >
      <label className={label}>
        {t('auditLog.filters.company')}
        <select className={input} {...field('companyId')}>
          <option value="">{t('auditLog.filters.allCompanies')}</option>
          {companies.map((company) => (
            <option key={company._id} value={company._id}>
              {company.name}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        {t('auditLog.filters.actor')}
        <input className={input} {...field('actor')} placeholder={t('auditLog.filters.actorHint')} />
      </label>
      <label className={label}>
        {t('auditLog.filters.type')}
        <input className={input} {...field('type')} placeholder={t('auditLog.filters.typeHint')} />
      </label>
      <label className={label}>
        {t('auditLog.filters.targetType')}
        <input className={input} {...field('targetType')} placeholder={t('auditLog.filters.targetTypeHint')} />
      </label>
      <label className={label}>
        {t('auditLog.filters.targetId')}
        <input className={input} {...field('targetId')} />
      </label>
      <label className={label}>
        {t('auditLog.filters.from')}
        <input type="date" className={input} {...field('from')} />
      </label>
      <label className={label}>
        {t('auditLog.filters.to')}
        <input type="date" className={input} {...field('to')} />
      </label>
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-on-brand hover:bg-brand-700"
        >
          {t('auditLog.filters.apply')}
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft({});
            onApply({});
          }}
          className="rounded-lg border border-gray-300 px-4 py-2 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
        >
          {t('auditLog.filters.clear')}
        </button>
      </div>
    </form>
  );
}
