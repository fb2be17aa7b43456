// A scorecard field over time: pick one of the prompts the company runs and one of its integer,
// option (custom) or yes/no (boolean) fields; an integer shows its average per period (line), an
// option field how often each answer was given (stacked bars), a yes/no field its rate of yes (line).
import { useCallback, useMemo, type ReactElement } from 'react';
import type { AvailablePromptDto, ScorecardPoint } from '@earshot/contracts';
import { inputClass } from '../../components/form-parts';
import { Alert } from '../../components/text-field';
import { PageSpinner } from '../../components/spinner';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import type { ChartSeries } from './chart-canvas';
import { ChartFigure } from './chart-figure';
import { useDashboardPromptsQuery, useScorecardQuery } from './dashboards-api';
import type { DashboardFilters } from './filters';
import type { Formats } from './format';
import { catalogue } from './i18n';

export const CHARTED_TYPES = ['integer', 'custom', 'boolean'] as const;
type FieldType = (typeof CHARTED_TYPES)[number];
type Field = AvailablePromptDto['expectedFormat'][number] & { type: FieldType };

export function chartedFields(prompt: AvailablePromptDto | undefined): Field[] {
  return (prompt?.expectedFormat ?? []).filter((field): field is Field =>
    (CHARTED_TYPES as readonly string[]).includes(field.type),
  );
}

/** The chart's series for the field's kind: the average, the rate, or one series per answer. */
export function scorecardSeries(
  points: ScorecardPoint[],
  field: Field,
  labels: { average: string; rate: string },
): ChartSeries[] {
  if (field.type === 'integer')
    return [{ label: labels.average, values: points.map((point) => point.average ?? null) }];
  if (field.type === 'boolean') return [{ label: labels.rate, values: points.map((point) => point.rate ?? null) }];
  const answers = [...(field.options ?? [])];
  for (const point of points)
    for (const answer of Object.keys(point.distribution ?? {})) if (!answers.includes(answer)) answers.push(answer);
  return answers.map((answer) => ({ label: answer, values: points.map((point) => point.distribution?.[answer] ?? 0) }));
}

export function ScorecardPickers({
  prompts,
  promptId,
  field,
  onChange,
}: {
  prompts: AvailablePromptDto[];
  promptId: string | undefined;
  field: string | undefined;
  onChange: (changes: { promptId?: string | null; field?: string | null }) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const usable = prompts.filter((prompt) => chartedFields(prompt).length > 0);
  const fields = chartedFields(usable.find((prompt) => prompt._id === promptId));
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      <label className="min-w-0 sm:w-64">
        <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
          {t('dashboards.scorecard.prompt')}
        </span>
        <select
          className={`${inputClass} pr-8`}
          value={promptId ?? ''}
          onChange={(event) => onChange({ promptId: event.target.value || null, field: null })}
          data-testid="scorecard-prompt"
        >
          <option value="">{t('dashboards.scorecard.pickPrompt')}</option>
          {usable.map((prompt) => (
            <option key={prompt._id} value={prompt._id}>
              {prompt.name}
            </option>
          ))}
        </select>
      </label>
      <label className="min-w-0 sm:w-64">
        <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
          {t('dashboards.scorecard.field')}
        </span>
        <select
          className={`${inputClass} pr-8`}
          value={field ?? ''}
          disabled={!promptId}
          onChange={(event) => onChange({ field: event.target.value || null })}
          data-testid="scorecard-field"
        >
          <option value="">{t('dashboards.scorecard.pickField')}</option>
          {fields.map((item) => (
            <option key={item.name} value={item.name}>
              {t(`dashboards.scorecard.types.${item.type}`, { name: item.name })}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

export function ScorecardSection({
  filters,
  promptId,
  field,
  fmt,
  onPick,
  onOpen,
}: {
  filters: DashboardFilters;
  promptId: string | undefined;
  field: string | undefined;
  fmt: Formats;
  onPick: (changes: { promptId?: string | null; field?: string | null }) => void;
  onOpen: (period: string) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const prompts = useDashboardPromptsQuery(filters.companyId);
  const prompt = prompts.data?.items.find((item) => item._id === promptId);
  const chosen = chartedFields(prompt).find((item) => item.name === field);
  const series = useScorecardQuery({ ...filters, promptId: promptId ?? '', field: field ?? '' }, { skip: !chosen });
  const points = useMemo(() => series.data ?? [], [series.data]);
  const labels = useMemo(() => points.map((point) => fmt.period(point.period)), [points, fmt]);
  const data = useMemo(
    () =>
      chosen
        ? scorecardSeries(points, chosen, {
            average: t('dashboards.scorecard.average'),
            rate: t('dashboards.scorecard.rate'),
          })
        : [],
    [points, chosen, t],
  );
  const format = chosen?.type === 'boolean' ? fmt.percent : fmt.decimal;
  const open = useCallback(
    (index: number) => {
      const point = points[index];
      if (point) onOpen(point.period);
    },
    [points, onOpen],
  );
  return (
    <section
      aria-labelledby="scorecard-heading"
      className="mb-6 rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
      data-testid="scorecard-section"
    >
      <h2 id="scorecard-heading" className="mb-3 text-lg font-semibold text-gray-900 dark:text-white">
        {t('dashboards.scorecard.title')}
      </h2>
      {prompts.error ? (
        <Alert>{errorMessage(prompts.error) ?? t('dashboards.loadFailed')}</Alert>
      ) : (
        <ScorecardPickers prompts={prompts.data?.items ?? []} promptId={promptId} field={field} onChange={onPick} />
      )}
      <div className="mt-4">
        {!chosen ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('dashboards.scorecard.hint')}</p>
        ) : series.error ? (
          <Alert>{errorMessage(series.error) ?? t('dashboards.loadFailed')}</Alert>
        ) : !series.data ? (
          <PageSpinner label={t('common.loading')} />
        ) : (
          <ChartFigure
            title={t(`dashboards.scorecard.chart.${chosen.type}`, { name: chosen.name })}
            testId="scorecard-chart"
            column={t('dashboards.period')}
            kind={chosen.type === 'custom' ? 'bar' : 'line'}
            stacked={chosen.type === 'custom'}
            labels={labels}
            series={data}
            format={format}
            onOpen={open}
            empty={points.every((point) => point.runs === 0)}
            emptyText={t('dashboards.scorecard.empty')}
          />
        )}
      </div>
    </section>
  );
}
