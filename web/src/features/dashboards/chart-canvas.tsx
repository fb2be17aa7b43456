// A line or bar chart drawn by Chart.js. This module is loaded with a dynamic import
// (chart-figure.tsx), so the library reaches the browser only when a dashboard draws a chart, and
// only the parts these charts need are registered. Colours are read from the page and the chart
// is drawn again when the theme's dark class changes. A click picks the period under the pointer
// (the nearest along the x axis), which opens the calls behind it.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);

export interface ChartSeries {
  label: string;
  values: Array<number | null>;
}

export interface ChartCanvasProps {
  kind: 'line' | 'bar';
  labels: string[];
  series: ChartSeries[];
  /** Bars of several series on top of each other (a distribution). */
  stacked?: boolean;
  format: (value: number) => string;
  /** Counts: the axis marks whole numbers only. */
  integer?: boolean;
  onPoint?: (index: number) => void;
  height?: number;
}

// Distinct in both themes; the first is the brand's colour.
const PALETTE = ['#0ea5e9', '#f59e0b', '#8b5cf6', '#ef4444', '#14b8a6', '#ec4899', '#84cc16', '#6366f1'];

function watchDark(onChange: (dark: boolean) => void): () => void {
  const root = document.documentElement;
  const observer = new MutationObserver(() => onChange(root.classList.contains('dark')));
  observer.observe(root, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

export default function ChartCanvas({
  kind,
  labels,
  series,
  stacked = false,
  format,
  integer = false,
  onPoint,
  height = 240,
}: ChartCanvasProps): ReactElement {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  useEffect(() => watchDark(setDark), []);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!canvas.current || !context) return undefined;
    const style = getComputedStyle(canvas.current);
    const brand = style.getPropertyValue('--color-brand-500').trim() || '#15803d';
    const colour = (index: number) => (index === 0 ? brand : PALETTE[index % PALETTE.length]!);
    const grid = dark ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.08)';
    const axis = { ticks: { color: style.color }, grid: { color: grid }, stacked };
    const chart = new Chart(context, {
      type: kind,
      data: {
        labels,
        datasets: series.map((item, index) => ({
          label: item.label,
          data: item.values,
          backgroundColor: colour(index),
          borderColor: colour(index),
          borderRadius: kind === 'bar' ? 4 : 0,
          pointRadius: kind === 'line' ? 4 : 0,
          pointHoverRadius: 6,
          spanGaps: true,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        responsive: true,
        interaction: { mode: 'index', intersect: false, axis: 'x' },
        onClick: (_event, elements) => {
          const first = elements[0];
          if (first && onPoint) onPoint(first.index);
        },
        onHover: (event, elements) => {
          const target = event.native?.target;
          if (target instanceof HTMLElement) target.style.cursor = elements.length && onPoint ? 'pointer' : 'default';
        },
        scales: {
          x: axis,
          y: {
            ...axis,
            beginAtZero: true,
            ticks: { ...axis.ticks, ...(integer ? { precision: 0 } : {}), callback: (value) => format(Number(value)) },
          },
        },
        plugins: {
          legend: { display: series.length > 1, labels: { color: style.color } },
          tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${format(Number(item.raw))}` } },
        },
      },
    });
    return () => chart.destroy();
  }, [kind, labels, series, stacked, format, integer, onPoint, dark]);
  return (
    <div className="relative" style={{ height }}>
      <canvas ref={canvas} data-testid="chart-canvas" />
    </div>
  );
}
