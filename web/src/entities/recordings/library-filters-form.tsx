// The recording filters of the list and the search: tag, client, dates, speaker, status and
// language (and the company, for a HOST_ADMIN). Choices apply at once; the speaker's name applies
// on Enter or when the field is left. Below 640 px they fold behind a "Filters" button.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { TRANSCRIPTION_STATUSES } from '@earshot/contracts/constants';
import type { TagCount } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { LANGUAGES } from '../../i18n/languages';
import { activeFilterCount, type LibraryFilters } from './library-filters';
import { fieldInputClass } from '../../components/form-field';
import { catalogue } from './library-filters-i18n';

type Option = { _id: string; name: string };

const labelClass = 'flex min-w-0 flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400';

export function LibraryFiltersForm({
  value,
  onChange,
  tags,
  clients,
  companies,
  withStatus = true,
}: {
  value: LibraryFilters;
  onChange: (next: LibraryFilters) => void;
  tags: TagCount[];
  /** null: the caller may not read clients (no client filter). */
  clients: Option[] | null;
  /** null: not a HOST_ADMIN. */
  companies: Option[] | null;
  withStatus?: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = activeFilterCount(value);
  // The company is where one looks, not a filter to clear.
  const clearable = count - (value.companyId ? 1 : 0);
  const set = (changes: LibraryFilters) => onChange({ ...value, ...changes });
  const applySpeaker = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const speaker = String(new FormData(event.currentTarget).get('speaker') ?? '').trim();
    if (speaker !== (value.speaker ?? '')) set({ speaker: speaker || undefined });
  };
  // A tag named in the URL but no longer in the list (renamed meanwhile) still shows as chosen.
  const tagNames =
    tags.some((tag) => tag.name === value.tag) || !value.tag
      ? tags.map((tag) => tag.name)
      : [value.tag, ...tags.map((tag) => tag.name)];

  return (
    <div className="mb-4" role="search" aria-label={t('libraryFilters.label')}>
      <button
        type="button"
        className="mb-2 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 sm:hidden dark:border-gray-700 dark:text-gray-200"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        data-testid="filters-toggle"
      >
        {count ? t('libraryFilters.toggleCount', { count }) : t('libraryFilters.toggle')}
      </button>
      {/* A form so Enter in the speaker field applies it; keyed so Back/Forward shows the URL's name. */}
      <form
        id={panelId}
        onSubmit={applySpeaker}
        key={value.speaker ?? ''}
        className={`${open ? 'grid' : 'hidden'} grid-cols-1 gap-3 sm:grid sm:grid-cols-2 lg:grid-cols-4`}
        data-testid="library-filters"
      >
        {companies && (
          <label className={labelClass}>
            {t('libraryFilters.company')}
            {/* Another company's tags and clients do not apply: those filters start over. */}
            <select
              className={fieldInputClass}
              value={value.companyId ?? ''}
              onChange={(event) =>
                onChange({ ...value, companyId: event.target.value || undefined, clientId: undefined, tag: undefined })
              }
              data-testid="company-filter"
            >
              <option value="">{t('libraryFilters.allCompanies')}</option>
              {companies.map((company) => (
                <option key={company._id} value={company._id}>
                  {company.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={labelClass}>
          {t('libraryFilters.tag')}
          <select
            className={fieldInputClass}
            value={value.tag ?? ''}
            onChange={(event) => set({ tag: event.target.value || undefined })}
            data-testid="tag-filter"
          >
            <option value="">{t('libraryFilters.anyTag')}</option>
            {tagNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {clients && (
          <label className={labelClass}>
            {t('libraryFilters.client')}
            <select
              className={fieldInputClass}
              value={value.clientId ?? ''}
              onChange={(event) => set({ clientId: event.target.value || undefined })}
              data-testid="client-filter"
            >
              <option value="">{t('libraryFilters.allClients')}</option>
              {clients.map((client) => (
                <option key={client._id} value={client._id}>
                  {client.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={labelClass}>
          {t('libraryFilters.speaker')}
          <input
            name="speaker"
            type="search"
            className={fieldInputClass}
            defaultValue={value.speaker ?? ''}
            maxLength={80}
            placeholder={t('libraryFilters.speakerPlaceholder')}
            onBlur={(event) => event.currentTarget.form?.requestSubmit()}
            data-testid="speaker-filter"
            // The date fields keep Enter from submitting the form by itself (no implicit submission with several fields).
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }}
          />
        </label>
        <label className={labelClass}>
          {t('libraryFilters.from')}
          <input
            type="date"
            className={fieldInputClass}
            value={value.from ?? ''}
            max={value.to}
            onChange={(event) => set({ from: event.target.value || undefined })}
            data-testid="from-filter"
          />
        </label>
        <label className={labelClass}>
          {t('libraryFilters.to')}
          <input
            type="date"
            className={fieldInputClass}
            value={value.to ?? ''}
            min={value.from}
            onChange={(event) => set({ to: event.target.value || undefined })}
            data-testid="to-filter"
          />
        </label>
        {withStatus && (
          <label className={labelClass}>
            {t('libraryFilters.status')}
            <select
              className={fieldInputClass}
              value={value.status ?? ''}
              onChange={(event) => set({ status: (event.target.value || undefined) as LibraryFilters['status'] })}
              data-testid="status-filter"
            >
              <option value="">{t('libraryFilters.anyStatus')}</option>
              {TRANSCRIPTION_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`transcripts.status.${status}`)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={labelClass}>
          {t('libraryFilters.language')}
          <select
            className={fieldInputClass}
            value={value.language ?? ''}
            onChange={(event) => set({ language: (event.target.value || undefined) as LibraryFilters['language'] })}
            data-testid="language-filter"
          >
            <option value="">{t('libraryFilters.anyLanguage')}</option>
            {LANGUAGES.map((language) => (
              <option key={language.code} value={language.code} lang={language.code}>
                {language.label}
              </option>
            ))}
          </select>
        </label>
        {clearable > 0 && (
          <div className="flex items-end">
            <button
              type="button"
              onClick={() => onChange(value.companyId ? { companyId: value.companyId } : {})}
              className="rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-gray-800"
              data-testid="clear-filters"
            >
              {t('libraryFilters.clear')}
            </button>
          </div>
        )}
      </form>
    </div>
  );
}
