import { useState, type FormEvent, type ReactElement } from 'react';
import { buttonClass } from '../../components/form-field';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { PROMPT_SCOPES, PROMPT_TYPES, type PromptFilters } from './model';

/** Search by name or description, filter by type and scope; applied to the URL. */
export function PromptFiltersBar({
  value,
  onApply,
}: {
  value: PromptFilters;
  onApply: (filters: PromptFilters) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [draft, setDraft] = useState(value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, page: 1 });
  };
  return (
    <form
      className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem_12rem_auto]"
      onSubmit={submit}
      role="search"
      aria-label={t('filters.label')}
    >
      <input
        className={inputClass}
        type="search"
        value={draft.search}
        onChange={(event) => setDraft({ ...draft, search: event.target.value })}
        placeholder={t('filters.search')}
        aria-label={t('filters.search')}
      />
      <select
        className={inputClass}
        value={draft.type}
        aria-label={t('columns.type')}
        onChange={(event) => onApply({ ...draft, page: 1, type: event.target.value as PromptFilters['type'] })}
      >
        <option value="">{t('filters.allTypes')}</option>
        {PROMPT_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`types.${type}`)}
          </option>
        ))}
      </select>
      <select
        className={inputClass}
        value={draft.scope}
        aria-label={t('columns.scope')}
        onChange={(event) => onApply({ ...draft, page: 1, scope: event.target.value as PromptFilters['scope'] })}
      >
        <option value="">{t('filters.allScopes')}</option>
        {[...PROMPT_SCOPES, 'NA' as const].map((scope) => (
          <option key={scope} value={scope}>
            {t(`scopes.${scope}`)}
          </option>
        ))}
      </select>
      <button type="submit" className={buttonClass.secondary}>
        {t('filters.apply')}
      </button>
    </form>
  );
}
