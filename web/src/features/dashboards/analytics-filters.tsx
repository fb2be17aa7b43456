// The analytics page's filters: range, grouping, agent, client and tag. Every change is written to
// the address at once (the page reads its filters from there). The choices come from what the
// caller may read: the company's tags, its clients for the roles that may read them (else the
// clients the figures name), and the agents the figures name.
import type { ReactElement } from 'react';
import { inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { GROUPS, type DashboardFilters } from './filters';
import { catalogue } from './i18n';

export interface Choice {
  id: string;
  name: string;
}

export interface FilterChoices {
  agents: Choice[];
  clients: Choice[];
  tags: string[];
}

const label = 'mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300';
const select = `${inputClass} pr-8`;

export function AnalyticsFilters({
  filters,
  choices,
  onChange,
}: {
  filters: DashboardFilters;
  choices: FilterChoices;
  onChange: (changes: Partial<Record<keyof DashboardFilters, string | null>>) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const pick = (key: 'agentId' | 'clientId' | 'tag', options: Choice[], all: string) => (
    <label className="min-w-0">
      <span className={label}>{t(`dashboards.filters.${key}`)}</span>
      <select
        className={select}
        value={filters[key] ?? ''}
        onChange={(event) => onChange({ [key]: event.target.value || null })}
        data-testid={`filter-${key}`}
      >
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <fieldset className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="analytics-filters">
      <legend className="sr-only">{t('dashboards.filters.legend')}</legend>
      <label className="min-w-0">
        <span className={label}>{t('dashboards.filters.from')}</span>
        <input
          type="date"
          className={inputClass}
          value={filters.from}
          max={filters.to}
          required
          onChange={(event) => onChange({ from: event.target.value || null })}
          data-testid="filter-from"
        />
      </label>
      <label className="min-w-0">
        <span className={label}>{t('dashboards.filters.to')}</span>
        <input
          type="date"
          className={inputClass}
          value={filters.to}
          min={filters.from}
          required
          onChange={(event) => onChange({ to: event.target.value || null })}
          data-testid="filter-to"
        />
      </label>
      <label className="min-w-0">
        <span className={label}>{t('dashboards.filters.groupBy')}</span>
        <select
          className={select}
          value={filters.groupBy}
          onChange={(event) => onChange({ groupBy: event.target.value })}
          data-testid="filter-groupBy"
        >
          {GROUPS.map((group) => (
            <option key={group} value={group}>
              {t(`dashboards.groups.${group}`)}
            </option>
          ))}
        </select>
      </label>
      {pick('agentId', choices.agents, t('dashboards.filters.allAgents'))}
      {pick('clientId', choices.clients, t('dashboards.filters.allClients'))}
      {pick(
        'tag',
        choices.tags.map((tag) => ({ id: tag, name: tag })),
        t('dashboards.filters.allTags'),
      )}
    </fieldset>
  );
}
