// /features (HOST_ADMIN): the product's switchable features. Platform switches act at once (a kill
// switch for every company); a company's switches are edited together and saved.
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { buttonClass, Field, inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { Spinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { FeatureSwitch } from './feature-switch';
import {
  useCompanyFeaturesQuery,
  useFeatureCatalogueQuery,
  useSetCompanyFeaturesMutation,
  useSetPlatformFeatureMutation,
  type Feature,
} from './features-api';
import { catalogue } from './i18n';

const card = 'rounded-2xl border border-gray-200 bg-white p-5 dark:border-gray-800 dark:bg-gray-900';

export default function FeaturesPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [search, setSearch] = useSearchParams();
  const companyId = search.get('company') ?? '';
  const features = useFeatureCatalogueQuery();
  const companies = useCompanyOptionsQuery();
  const companyFeatures = useCompanyFeaturesQuery(companyId || skipToken);
  const [setPlatform, platformState] = useSetPlatformFeatureMutation();
  const [saveCompany, companyState] = useSetCompanyFeaturesMutation();
  const [draft, setDraft] = useState<Record<string, boolean>>({});
  const { toasts, show, dismiss } = useToasts();

  const name = useCallback(
    (feature: Feature) =>
      i18n.exists(`features.names.${feature.key}`, { ns: catalogue.namespace })
        ? t(`features.names.${feature.key}`)
        : feature.name,
    [i18n, t],
  );
  const describe = useCallback(
    (feature: Feature) =>
      i18n.exists(`features.descriptions.${feature.key}`, { ns: catalogue.namespace })
        ? t(`features.descriptions.${feature.key}`)
        : feature.description,
    [i18n, t],
  );
  const platformOff = useMemo(
    () => new Set((features.data ?? []).filter((f) => f.enabled === false).map((f) => f.key)),
    [features.data],
  );

  const togglePlatform = async (feature: Feature, enabled: boolean) => {
    const answer = await setPlatform({ key: feature.key, enabled });
    if ('error' in answer) show({ kind: 'error', title: t('features.saveFailed'), detail: errorMessage(answer.error) });
    else
      show({
        kind: 'success',
        title: t('features.switched', { name: name(feature), state: enabled ? t('features.on') : t('features.off') }),
      });
  };

  const saveDraft = async () => {
    const answer = await saveCompany({ id: companyId, features: draft });
    if ('error' in answer) {
      show({ kind: 'error', title: t('features.saveFailed'), detail: errorMessage(answer.error) });
      return;
    }
    setDraft({});
    show({ kind: 'success', title: t('features.saved') });
  };

  const pick = (id: string) => {
    setDraft({});
    setSearch(id ? { company: id } : {});
  };

  return (
    <div>
      <PageHeading>{t('pages.features')}</PageHeading>
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <section className={card} aria-labelledby="platform-features">
          <h2 id="platform-features" className="text-lg font-semibold text-gray-900 dark:text-white">
            {t('features.platform')}
          </h2>
          <p className="mb-2 text-sm text-gray-600 dark:text-gray-400">{t('features.platformHint')}</p>
          {features.isLoading ? <Spinner label={t('common.loading')} /> : null}
          {features.error ? (
            <Alert>
              {errorMessage(features.error) ?? t('features.loadFailed')}{' '}
              <button type="button" className="underline" onClick={() => void features.refetch()}>
                {t('features.retry')}
              </button>
            </Alert>
          ) : null}
          <ul className="divide-y divide-gray-100 dark:divide-gray-800" data-testid="platform-features">
            {(features.data ?? []).map((feature) => (
              <FeatureSwitch
                key={feature.key}
                name={name(feature)}
                description={describe(feature)}
                checked={feature.enabled !== false}
                stateText={feature.enabled !== false ? t('features.on') : t('features.off')}
                disabled={platformState.isLoading}
                onChange={(enabled) => void togglePlatform(feature, enabled)}
              />
            ))}
          </ul>
        </section>

        <section className={card} aria-labelledby="company-features">
          <h2 id="company-features" className="text-lg font-semibold text-gray-900 dark:text-white">
            {t('features.company')}
          </h2>
          <p className="mb-4 text-sm text-gray-600 dark:text-gray-400">{t('features.companyHint')}</p>
          <div className="max-w-sm">
            <Field label={t('features.pickCompany')}>
              <select className={`${inputClass} pr-8`} value={companyId} onChange={(event) => pick(event.target.value)}>
                <option value="">{t('features.choose')}</option>
                {(companies.data ?? []).map((option) => (
                  <option key={option._id} value={option._id}>
                    {option.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          {companyId && companyFeatures.isFetching ? <Spinner label={t('common.loading')} /> : null}
          {companyId && companyFeatures.error ? (
            <div className="mt-3">
              <Alert>{errorMessage(companyFeatures.error) ?? t('features.loadFailed')}</Alert>
            </div>
          ) : null}
          {companyId && companyFeatures.data ? (
            <>
              <ul className="mt-2 divide-y divide-gray-100 dark:divide-gray-800" data-testid="company-features-list">
                {companyFeatures.data.map((feature) => {
                  const checked = draft[feature.key] ?? feature.enabled !== false;
                  return (
                    <FeatureSwitch
                      key={feature.key}
                      name={name(feature)}
                      description={describe(feature)}
                      checked={checked}
                      stateText={checked ? t('features.on') : t('features.off')}
                      note={platformOff.has(feature.key) ? t('features.offForPlatform') : null}
                      onChange={(enabled) => setDraft((all) => ({ ...all, [feature.key]: enabled }))}
                    />
                  );
                })}
              </ul>
              <div className="mt-4 flex justify-end">
                <button
                  type="button"
                  className={buttonClass.primary}
                  disabled={companyState.isLoading || Object.keys(draft).length === 0}
                  onClick={() => void saveDraft()}
                  data-testid="company-features-save"
                >
                  {t('features.save')}
                </button>
              </div>
            </>
          ) : null}
        </section>
      </div>
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('features.close')} />
    </div>
  );
}
