import { useMemo, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { PageSpinner } from '../../components/spinner';
import { useConfirmedDelete } from '../../components/use-confirmed-delete';
import { usePricingQuery } from '../../entities/credits';
import { useDeleteModelMutation, useModelsQuery, useProvidersQuery, useTestModelMutation } from './ai-config-api';
import { DeleteConfirm } from './confirmed-delete';
import { ConnectionTest } from './connection-test';
import { buttonClass } from '../../components/form-parts';
import type { AiModel } from './model';
import { ModelForm } from './model-form';
import { EmptyRow, Section, td, th, YesNo } from './table-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { catalogue } from './i18n';

export function ModelsSection(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { data, isLoading, isError } = useModelsQuery();
  const { data: providers } = useProvidersQuery();
  const pricing = usePricingQuery();
  // A model without any price in force is refused (409 MODEL_NOT_PRICED) until one is set on /pricing.
  const priced = useMemo(() => new Set((pricing.data?.prices ?? []).map((price) => price.modelId)), [pricing.data]);
  const [editing, setEditing] = useState<AiModel | 'new' | null>(null);
  const [remove, removing] = useDeleteModelMutation();
  // A refused delete (the server says why) stays above the list until the next one succeeds.
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const deletion = useConfirmedDelete<AiModel>(remove, {
    done: () => setDeleteFailure(null),
    failed: (error) => setDeleteFailure(errorMessage(error) ?? t('aiConfig.deleteFailed')),
  });
  const [test] = useTestModelMutation();
  const items = data?.items ?? [];
  const providerList = providers?.items ?? [];

  return (
    <Section
      title={t('aiConfig.models.title')}
      addLabel={t('aiConfig.models.add')}
      onAdd={() => setEditing('new')}
      addDisabled={providerList.length === 0}
      testId="models-section"
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
        <table className="min-w-full divide-y divide-gray-200 dark:divide-gray-800" data-testid="models-table">
          <thead className="bg-gray-50 dark:bg-gray-800/50">
            <tr>
              <th scope="col" className={th}>
                {t('aiConfig.models.provider')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.models.name')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.models.label')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.models.purpose')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.models.isDefault')}
              </th>
              <th scope="col" className={th}>
                {t('aiConfig.models.contextSize')}
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
              <EmptyRow
                colSpan={8}
                text={t(providerList.length ? 'aiConfig.models.empty' : 'aiConfig.models.needProvider')}
              />
            ) : (
              items.map((model) => (
                <tr key={model._id} data-testid="model-row" data-model-id={model._id}>
                  <td className={td}>{model.providerName}</td>
                  <td className={`${td} font-medium break-all`}>
                    {model.name}
                    {pricing.data && !priced.has(model._id) ? (
                      <Link
                        to="/pricing"
                        className="mt-1 block text-xs font-normal text-amber-800 underline dark:text-amber-300"
                        data-testid="model-no-price"
                      >
                        {t('aiConfig.models.noPrice')}
                      </Link>
                    ) : null}
                  </td>
                  <td className={td}>{model.label}</td>
                  <td className={`${td} whitespace-nowrap`}>{t(`aiConfig.purposes.${model.purpose}`)}</td>
                  <td className={td}>
                    <YesNo value={model.isDefault} />
                  </td>
                  <td className={`${td} tabular-nums`}>{model.contextSize?.toLocaleString() ?? '—'}</td>
                  <td className={td}>
                    <YesNo value={model.enabled} />
                  </td>
                  <td className={td}>
                    <div className="flex flex-wrap items-start gap-1">
                      <button type="button" onClick={() => setEditing(model)} className={buttonClass.row}>
                        {t('aiConfig.edit')}
                      </button>
                      <button type="button" onClick={() => deletion.ask(model)} className={buttonClass.danger}>
                        {t('aiConfig.delete')}
                      </button>
                      <ConnectionTest run={() => test(model._id).unwrap()} />
                    </div>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      )}
      {editing ? (
        <ModelForm
          model={editing === 'new' ? null : editing}
          providers={providerList}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <DeleteConfirm
        open={deletion.target !== null}
        message={t('aiConfig.models.deleteConfirm')}
        busy={removing.isLoading}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </Section>
  );
}
