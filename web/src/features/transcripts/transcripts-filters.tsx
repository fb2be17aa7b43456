import type { ReactElement } from 'react';
import { fieldInputClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

type Option = { _id: string; name: string };
export interface ListFilters {
  clientId?: string;
  companyId?: string;
}

const label = 'flex flex-col gap-1 text-xs font-medium text-gray-600 dark:text-gray-400';

/** Filter by client (when the caller may list clients) and, for a HOST_ADMIN, by company. */
export function TranscriptsFilters({ value, clients, companies, onChange }: { value: ListFilters; clients: Option[] | null; companies: Option[] | null; onChange: (next: ListFilters) => void }): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  if (!clients && !companies) return null;
  return (
    <div role="search" aria-label={t('transcriptList.filters')} className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {companies && (
        <label className={label}>
          {t('transcriptList.company')}
          {/* Another company's clients do not apply: the client filter starts over. */}
          <select className={fieldInputClass} value={value.companyId ?? ''} onChange={(event) => onChange({ companyId: event.target.value || undefined })} data-testid="company-filter">
            <option value="">{t('transcriptList.allCompanies')}</option>
            {companies.map((company) => <option key={company._id} value={company._id}>{company.name}</option>)}
          </select>
        </label>
      )}
      {clients && (
        <label className={label}>
          {t('transcriptList.client')}
          <select className={fieldInputClass} value={value.clientId ?? ''} onChange={(event) => onChange({ ...value, clientId: event.target.value || undefined })} data-testid="client-filter">
            <option value="">{t('transcriptList.allClients')}</option>
            {clients.map((client) => <option key={client._id} value={client._id}>{client.name}</option>)}
          </select>
        </label>
      )}
    </div>
  );
}
