import { useState, type ReactElement } from 'react';
import { PageSpinner } from '../../components/spinner';
import { useConfirmedDelete } from '../../components/use-confirmed-delete';
import { useDeleteProviderMutation, useProvidersQuery, useTestProviderMutation } from './ai-config-api';
import { DeleteConfirm } from './confirmed-delete';
import { ConnectionTest } from './connection-test';
import { buttonClass } from '../../components/form-parts';
import type { AiProvider } from './model';
import { ProviderForm } from './provider-form';
import { EmptyRow, Section, td, th, YesNo } from './table-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { catalogue } from './i18n';

export function ProvidersSection(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { data, isLoading, isError } = useProvidersQuery();
  const [editing, setEditing] = useState<AiProvider | 'new' | null>(null);
  const [remove, removing] = useDeleteProviderMutation();
  // A refused delete (e.g. a provider that still has models) stays above the list until the next one succeeds.
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const deletion = useConfirmedDelete<AiProvider>(remove, {
    done: () => setDeleteFailure(null),
    failed: (error) => setDeleteFailure(errorMessage(error) ?? t('aiConfig.deleteFailed')),
  });
  const [test] = useTestProviderMutation();
  const items = data?.items ?? [];

  return (
    <Section
      title={t('aiConfig.providers.title')}
      addLabel={t('aiConfig.providers.add')}
      onAdd={() => setEditing('new')}
      testId="providers-section"
    >
      {deleteFailure ? (
        <p role="alert" className="px-4 pt-3 text-sm text-red-700 dark:text-red-300">
          {deleteFailure}
        </p>
      ) : null}
      {isLoading ? (
        <PageSpinner label={t('common.loading')} />
      ) : isError ? (
        <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-300">
          {t('aiConfig.listError')}
        </p>
      ) : (
        <table className="min-w-full divide-y divide-gray-200 dark:divide-gray-800" data-testid="providers-table">
          <thead className="bg-gray-50 dark:bg-gray-800/50">
            <tr>
              <th scope="col" className={th}>
                {t('aiConfig.providers.name')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.providers.baseUrl')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.providers.apiKey')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.enabled')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.actions')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
            {items.length === 0 ? (
              <EmptyRow colSpan={5} text={t('aiConfig.providers.empty')} />
            ) : (
              items.map((provider) => (
                <tr key={provider._id} data-testid="provider-row" data-provider-id={provider._id}>
                  <td className={`${td} font-medium`}>{provider.name}</td>
                  <td className={`${td} max-w-xs break-all`}>{provider.baseUrl}</td>
                  <td className={`${td} font-mono whitespace-nowrap`} data-testid="provider-key">
                    {provider.hasApiKey ? `••••${provider.apiKeyLast4 ?? ''}` : t('aiConfig.providers.noKey')}
                  </td>
                  <td className={td}>
                    <YesNo value={provider.enabled} />
                  </td>
                  <td className={td}>
                    <div className="flex flex-wrap items-start gap-1">
                      <button type="button" onClick={() => setEditing(provider)} className={buttonClass.row}>
                        {t('aiConfig.edit')}
                      </button>
                      <button type="button" onClick={() => deletion.ask(provider)} className={buttonClass.danger}>
                        {t('aiConfig.delete')}
                      </button>
                      <ConnectionTest run={() => test(provider._id).unwrap()} />
                    </div>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      )}
      {editing ? <ProviderForm provider={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <DeleteConfirm
        open={deletion.target !== null}
        message={t('aiConfig.providers.deleteConfirm')}
        busy={removing.isLoading}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </Section>
  );
}
