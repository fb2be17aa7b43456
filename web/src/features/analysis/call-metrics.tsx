import type { ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import {
  analysisCatalogue as catalogue,
  type CallMetrics,
  formatClock,
  formatSpan,
  SPEAKER_COLORS,
} from '../../entities/transcripts';

const card = 'rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900';

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }): ReactElement {
  return (
    <div className={card}>
      <p className="text-xs text-gray-600 dark:text-gray-400">{label}</p>
      <p className="mt-1 text-xl font-semibold tabular-nums text-gray-900 dark:text-white" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

/**
 * Talk share per speaker as plain SVG bars: one bar per speaker needs no chart library (a lazy
 * chart chunk would cost tens of KB for what 20 lines of SVG show), and the table beside it carries
 * the figures for screen readers.
 */
function ShareBars({
  metrics,
  color,
}: {
  metrics: CallMetrics;
  color: (speakerId: string, index: number) => string;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const rowHeight = 28;
  return (
    <svg
      role="img"
      aria-label={t('metrics.chartLabel')}
      viewBox={`0 0 100 ${metrics.speakers.length * rowHeight}`}
      preserveAspectRatio="none"
      className="w-full"
      style={{ height: metrics.speakers.length * rowHeight }}
      data-testid="share-chart"
    >
      {metrics.speakers.map((speaker, index) => (
        <g key={speaker.speakerId}>
          <rect
            x="0"
            y={index * rowHeight + 6}
            width="100"
            height="16"
            rx="2"
            className="fill-gray-100 dark:fill-gray-800"
          />
          <rect
            x="0"
            y={index * rowHeight + 6}
            width={Math.max(0.5, speaker.share * 100)}
            height="16"
            rx="2"
            fill={color(speaker.speakerId, index)}
          />
        </g>
      ))}
    </svg>
  );
}

/** Call analytics (offline, no model): per-speaker talk, overlaps, silence, duration. */
export function CallMetricsPanel({
  metrics,
  colors,
}: {
  metrics: CallMetrics;
  colors: Map<string, string>;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const color = (speakerId: string, index: number) =>
    colors.get(speakerId) ?? SPEAKER_COLORS[index % SPEAKER_COLORS.length]!;
  return (
    <section aria-labelledby="call-metrics" className="mb-6" data-testid="call-metrics">
      <h2 id="call-metrics" className="mb-3 text-lg font-semibold text-gray-900 dark:text-white">
        {t('metrics.title')}
      </h2>
      <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure label={t('metrics.duration')} value={formatClock(metrics.duration)} testId="metric-duration" />
        <Figure
          label={t('metrics.overlaps')}
          value={t('metrics.overlapsValue', {
            count: metrics.overlaps.count,
            total: formatSpan(metrics.overlaps.total),
          })}
        />
        <Figure label={t('metrics.silence')} value={formatSpan(metrics.silence.total)} />
        <Figure label={t('metrics.longestSilence')} value={formatSpan(metrics.silence.longest)} />
      </div>
      <div className={`${card} grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]`}>
        <div>
          <p className="mb-2 text-sm font-medium text-gray-700 dark:text-gray-300">{t('metrics.share')}</p>
          {metrics.speakers.length > 0 ? (
            <ShareBars metrics={metrics} color={color} />
          ) : (
            <p className="text-sm text-gray-500">{t('metrics.noSpeech')}</p>
          )}
        </div>
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-gray-600 uppercase dark:text-gray-400">
              <tr>
                <th className="py-1 pr-3 font-semibold">{t('metrics.speaker')}</th>
                <th className="py-1 pr-3 font-semibold">{t('metrics.talkTime')}</th>
                <th className="py-1 pr-3 font-semibold">{t('metrics.words')}</th>
                <th className="py-1 pr-3 font-semibold">{t('metrics.wpm')}</th>
                <th className="py-1 pr-3 font-semibold">{t('metrics.turns')}</th>
                <th className="py-1 font-semibold">{t('metrics.longestMonologue')}</th>
              </tr>
            </thead>
            <tbody className="tabular-nums text-gray-800 dark:text-gray-200">
              {metrics.speakers.map((speaker, index) => (
                <tr
                  key={speaker.speakerId}
                  className="border-t border-gray-100 dark:border-gray-800"
                  data-testid="speaker-metrics"
                >
                  <td className="py-1.5 pr-3 whitespace-nowrap">
                    <span
                      aria-hidden="true"
                      className="mr-2 inline-block size-2.5 rounded-full"
                      style={{ backgroundColor: color(speaker.speakerId, index) }}
                    />
                    {speaker.speakerId}
                  </td>
                  <td className="py-1.5 pr-3 whitespace-nowrap">
                    {formatClock(speaker.talkTime)} ({percent.format(speaker.share)})
                  </td>
                  <td className="py-1.5 pr-3">{number.format(speaker.words)}</td>
                  <td className="py-1.5 pr-3">{number.format(speaker.wordsPerMinute)}</td>
                  <td className="py-1.5 pr-3">{number.format(speaker.turns)}</td>
                  <td className="py-1.5">{formatSpan(speaker.longestMonologue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
