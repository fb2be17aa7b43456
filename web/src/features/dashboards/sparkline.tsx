// A client's trend of a scorecard field over the last six months, small enough for a table cell:
// numbers (an average, a rate) as a line, answers of an option field as the months' answers.
// Its text alternative names every month's value.
import type { ReactElement } from 'react';

export interface TrendPoint {
  /** Its label for the reader (a month). */
  label: string;
  value: number | string | null;
}

const WIDTH = 96;
const HEIGHT = 24;

export function Sparkline({
  points,
  format,
  label,
}: {
  points: TrendPoint[];
  format: (value: number) => string;
  label: string;
}): ReactElement {
  const text = (value: TrendPoint['value']) =>
    value === null ? '—' : typeof value === 'number' ? format(value) : value;
  const alternative = `${label}: ${points.map((point) => `${point.label} ${text(point.value)}`).join(', ')}`;
  const numbers = points.map((point) => (typeof point.value === 'number' ? point.value : null));
  const known = numbers.filter((value): value is number => value !== null);
  const last = [...points].reverse().find((point) => point.value !== null);
  if (points.length === 0 || !last)
    return (
      <span className="text-gray-500 dark:text-gray-400" title={alternative} aria-label={alternative}>
        —
      </span>
    );
  if (known.length === 0) {
    // An option field: the latest month's answer, the others in the text alternative.
    return (
      <span className="whitespace-nowrap" role="img" aria-label={alternative} title={alternative} data-testid="trend">
        {text(last.value)}
      </span>
    );
  }
  const low = Math.min(...known);
  const high = Math.max(...known);
  const step = points.length > 1 ? WIDTH / (points.length - 1) : 0;
  const y = (value: number) => (high === low ? HEIGHT / 2 : HEIGHT - 2 - ((value - low) / (high - low)) * (HEIGHT - 4));
  // A month without a value breaks the line; a lone value is a dot.
  const runs: string[][] = [[]];
  numbers.forEach((value, index) => {
    if (value === null) runs.push([]);
    else runs.at(-1)!.push(`${(index * step).toFixed(1)},${y(value).toFixed(1)}`);
  });
  return (
    <span
      className="inline-flex items-center gap-2 whitespace-nowrap"
      role="img"
      aria-label={alternative}
      title={alternative}
      data-testid="trend"
    >
      <svg
        width={WIDTH}
        height={HEIGHT}
        viewBox={`-2 0 ${WIDTH + 4} ${HEIGHT}`}
        aria-hidden="true"
        className="text-brand-600 dark:text-brand-400"
      >
        {runs
          .filter((run) => run.length > 1)
          .map((run) => (
            <polyline
              key={run[0]}
              points={run.join(' ')}
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
            />
          ))}
        {runs
          .filter((run) => run.length === 1)
          .map((run) => (
            <circle key={run[0]} cx={run[0]!.split(',')[0]} cy={run[0]!.split(',')[1]} r="2" fill="currentColor" />
          ))}
      </svg>
      <span className="text-xs tabular-nums">{text(last.value)}</span>
    </span>
  );
}
