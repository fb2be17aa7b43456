import { useMemo, useState, type ReactElement } from 'react';
import type { EmailTemplateDto } from '@earshot/contracts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { inputClass } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useEmailTemplatesQuery } from './email-api';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { catalogue } from './i18n';
import { TemplateEditor, type EditorTarget } from './template-editor';

const PLATFORM = 'platform';
const NONE: EmailTemplateDto[] = [];
const action =
  'rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-gray-800';

interface Row {
  template: EmailTemplateDto;
  /** The platform default shown for a company that has no version of its own. */
  inherited: boolean;
}

/**
 * The templates of the platform, or of one company: for each type and language the company's own
 * version when it has one, else the platform default it inherits (which it can copy and change).
 */
export function TemplatesTab({
  notify,
}: {
  notify: (kind: 'success' | 'error', title: string, detail?: string | null) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [scope, setScope] = useState<string>(PLATFORM);
  const companies = useCompanyOptionsQuery();
  const platform = useEmailTemplatesQuery({ companyId: PLATFORM });
  const own = useEmailTemplatesQuery({ companyId: scope }, { skip: scope === PLATFORM });
  const [editing, setEditing] = useState<EditorTarget | null>(null);

  const rows = useMemo<Row[]>(() => {
    const defaults = platform.data ?? NONE;
    if (scope === PLATFORM) return defaults.map((template) => ({ template, inherited: false }));
    const overrides = new Map(
      (own.data ?? NONE).map((template) => [`${template.type}:${template.language}`, template]),
    );
    return defaults.map((template) => {
      const mine = overrides.get(`${template.type}:${template.language}`);
      return mine ? { template: mine, inherited: false } : { template, inherited: true };
    });
  }, [platform.data, own.data, scope]);

  const columns = useMemo<Array<DataColumn<Row>>>(
    () => [
      {
        id: 'type',
        header: t('email.columns.type'),
        cell: (row) => t(`email.types.${row.template.type}`),
        sortValue: (row) => row.template.type,
        canHide: false,
      },
      {
        id: 'language',
        header: t('email.columns.language'),
        cell: (row) => row.template.language.toUpperCase(),
        sortValue: (row) => row.template.language,
      },
      {
        id: 'subject',
        header: t('email.columns.subject'),
        cell: (row) => <span className="line-clamp-2">{row.template.subject}</span>,
      },
      {
        id: 'state',
        header: t('email.columns.state'),
        sortValue: (row) => (row.inherited ? 0 : 1),
        cell: (row) => (
          <span className="whitespace-nowrap text-xs">
            {row.inherited
              ? t('email.platform')
              : row.template.companyId
                ? t('email.companyVersion')
                : row.template.shipped
                  ? t('email.shipped')
                  : t('email.edited')}
          </span>
        ),
      },
    ],
    [t],
  );

  const loading = platform.isFetching || own.isFetching;
  const failed = platform.error ?? own.error;

  return (
    <div>
      <div className="mb-4 max-w-sm">
        <label htmlFor="email-scope" className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
          {t('email.scope')}
        </label>
        <select
          id="email-scope"
          className={inputClass}
          value={scope}
          onChange={(event) => setScope(event.target.value)}
        >
          <option value={PLATFORM}>{t('email.platform')}</option>
          {(companies.data ?? []).map((company) => (
            <option key={company._id} value={company._id}>
              {company.name}
            </option>
          ))}
        </select>
        {scope !== PLATFORM && (
          <p className="mt-1.5 text-xs text-gray-600 dark:text-gray-400">{t('email.overrideHint')}</p>
        )}
      </div>
      <DataTable
        label={t('email.tabs.templates')}
        testId="email-templates-table"
        columns={columns}
        rows={rows}
        rowId={(row) => `${row.template._id}:${row.inherited ? 'inherited' : 'own'}`}
        loading={loading}
        error={failed ? (errorMessage(failed) ?? t('email.loadFailed')) : null}
        onRetry={() => void (scope === PLATFORM ? platform.refetch() : own.refetch())}
        emptyText={t('email.empty')}
        rowActions={(row) => (
          <button
            type="button"
            className={action}
            onClick={() => setEditing({ template: row.template, overrideFor: row.inherited ? scope : null })}
          >
            {row.inherited ? t('email.addOverride') : t('email.edit')}
          </button>
        )}
      />
      {editing && (
        <TemplateEditor
          key={`${editing.template._id}:${editing.overrideFor ?? ''}`}
          target={editing}
          onClose={() => setEditing(null)}
          notify={notify}
        />
      )}
    </div>
  );
}
