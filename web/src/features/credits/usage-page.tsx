// /usage (every signed-in role): credits used by day, user, model and feature, with charts and the
// CSV for chargeback. A HOST_ADMIN picks the company, an ADMIN sees theirs, anyone else their own.
// The period is in the URL (?from=&to=, whole UTC days; the server defaults to this month).
import { useMemo, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CreditUsageDto } from '@earshot/contracts';
import { Icon } from '../../components/icons';
import { buttonClass, inputClass } from '../../components/form-parts';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { dayOf, formatCredits, formatMoney, isDay } from '../../lib/credits-format';
import { withParams } from '../../lib/search-params';
import { catalogue } from './i18n';
import { CompanyPicker, useReportScope } from './report-scope';
import { usageCsvUrl, useUsageQuery } from './reports-api';
import { UsageChart, type Point } from './usage-chart';

/** A day of the address, when it is a calendar day (else the server's default period). */
function dayParam(search: URLSearchParams, key: 'from' | 'to'): string | undefined {
  const value = search.get(key) ?? '';
  return isDay(value) ? value : undefined;
}

export default function UsagePage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const scope = useReportScope();
  const [search, setSearch] = useSearchParams();
  const from = dayParam(search, 'from');
  const to = dayParam(search, 'to');
  const companyId = scope.kind === 'self' ? null : scope.companyId;
  const waiting = scope.kind === 'host' && !companyId;
  const usage = useUsageQuery({ companyId, from, to }, { skip: waiting });
  const data = usage.data;
  const setDay = (key: 'from' | 'to', value: string) => setSearch(withParams(search, { [key]: value || null }));

  return (
    <div>
      <PageHeading>{t('pages.usage')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">
        {t(scope.kind === 'self' ? 'usage.introMine' : 'usage.intro')}
      </p>
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        {scope.kind === 'host' ? <CompanyPicker companyId={companyId} /> : null}
        <label>
          <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{t('usage.from')}</span>
          <input
            type="date"
            className={`${inputClass} sm:w-44`}
            value={from ?? data?.from ?? ''}
            max={to ?? dayOf(new Date())}
            onChange={(event) => setDay('from', event.target.value)}
          />
        </label>
        <label>
          <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{t('usage.to')}</span>
          <input
            type="date"
            className={`${inputClass} sm:w-44`}
            value={to ?? data?.to ?? ''}
            min={from}
            onChange={(event) => setDay('to', event.target.value)}
          />
        </label>
        {companyId ? (
          <a
            href={usageCsvUrl({ companyId, from: from ?? data?.from, to: to ?? data?.to })}
            download
            className={`${buttonClass.secondary} inline-flex items-center justify-center gap-2 sm:ml-auto`}
            data-testid="usage-csv"
          >
            <Icon name="download" className="size-4" />
            {t('usage.csv')}
          </a>
        ) : null}
      </div>
      {waiting ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('reports.pickCompanyFirst')}</p>
      ) : usage.error ? (
        <Alert>{errorMessage(usage.error) ?? t('reports.loadFailed')}</Alert>
      ) : !data ? (
        <PageSpinner label={t('common.loading')} />
      ) : (
        <UsageFigures data={data} showUsers={scope.kind !== 'self'} />
      )}
    </div>
  );
}

function UsageFigures({ data, showUsers }: { data: CreditUsageDto; showUsers: boolean }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const points = useMemo(
    () => ({
      byDay: data.byDay.map((d): Point => ({ key: d.day, label: d.day.slice(5), credits: d.credits })),
      byUser: data.byUser.map((u): Point => ({ key: u.userId ?? u.name, label: u.name, credits: u.credits })),
      byModel: data.byModel.map((m): Point => ({
        key: m.model,
        label: m.model,
        credits: m.credits,
        detail:
          [
            m.inputTokens || m.outputTokens
              ? t('usage.tokens', { input: number.format(m.inputTokens), output: number.format(m.outputTokens) })
              : null,
            m.seconds ? t('usage.seconds', { value: number.format(m.seconds) }) : null,
          ]
            .filter(Boolean)
            .join(' · ') || undefined,
      })),
      byFeature: data.byFeature.map((f): Point => ({
        key: f.feature,
        label: t(`reports.features.${f.feature}`),
        credits: f.credits,
      })),
    }),
    [data, t, number],
  );
  const column = t('usage.creditsColumn');
  return (
    <>
      <div className="mb-6 rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900">
        <p className="text-sm text-gray-600 dark:text-gray-400">
          {t('usage.total')} · {data.from} – {data.to}
        </p>
        <p className="text-3xl font-semibold tabular-nums" data-testid="usage-total">
          {t('reports.credits', { value: formatCredits(data.total, i18n.language) })}
        </p>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          {t('usage.worth', { money: formatMoney(data.total, data.creditRate, data.currency, i18n.language) })}
        </p>
      </div>
      {data.total === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="usage-empty">
          {t('usage.empty')}
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="lg:col-span-2">
            <UsageChart title={t('usage.byDay')} column={column} points={points.byDay} testId="usage-by-day" />
          </div>
          <UsageChart
            title={t('usage.byFeature')}
            column={column}
            points={points.byFeature}
            horizontal
            testId="usage-by-feature"
          />
          <UsageChart
            title={t('usage.byModel')}
            column={column}
            points={points.byModel}
            horizontal
            testId="usage-by-model"
          />
          {showUsers ? (
            <UsageChart
              title={t('usage.byUser')}
              column={column}
              points={points.byUser}
              horizontal
              testId="usage-by-user"
            />
          ) : null}
        </div>
      )}
    </>
  );
}
