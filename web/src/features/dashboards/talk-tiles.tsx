// The talk figures of the calls in range, as tiles: averages over the calls that have the figure
// (the agent's and customer's shares only exist on two-speaker stereo calls), a dash when none has.
import type { ReactElement } from 'react';
import type { TalkFigures } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import type { Formats } from './format';
import { catalogue } from './i18n';

const TILES = [
  'agentShare',
  'customerShare',
  'silenceShare',
  'interruptionsPerCall',
  'wordsPerMinute',
] as const satisfies ReadonlyArray<keyof TalkFigures>;
const SHARES: ReadonlyArray<keyof TalkFigures> = ['agentShare', 'customerShare', 'silenceShare'];

export function Tile({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId: string;
}): ReactElement {
  return (
    <div
      className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
      data-testid={testId}
    >
      <dt className="text-xs font-medium text-gray-500 uppercase dark:text-gray-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-gray-900 tabular-nums dark:text-white">{value}</dd>
      {hint ? <dd className="mt-1 text-xs text-gray-500 dark:text-gray-400">{hint}</dd> : null}
    </div>
  );
}

export function TalkTiles({ talk, fmt }: { talk: TalkFigures; fmt: Formats }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <section aria-labelledby="talk-heading" className="mb-6">
      <h2 id="talk-heading" className="mb-3 text-lg font-semibold text-gray-900 dark:text-white">
        {t('dashboards.talk.title')}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {TILES.map((key) => {
          const value = talk[key];
          const text = value === null ? '—' : SHARES.includes(key) ? fmt.percent(value) : fmt.decimal(value);
          return (
            <Tile
              key={key}
              label={t(`dashboards.talk.${key}`)}
              value={text}
              hint={t(`dashboards.talk.${key}Hint`)}
              testId={`talk-${key}`}
            />
          );
        })}
      </dl>
    </section>
  );
}
