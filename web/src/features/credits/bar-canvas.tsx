// A bar chart drawn by Chart.js (only the parts a bar chart needs, registered here, so the library
// stays in this lazy page's chunk). It follows the theme: colours are read from the page and the
// chart is drawn again when the dark class changes.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

function useDarkClass(): boolean {
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(document.documentElement.classList.contains('dark')));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

export function BarCanvas({
  labels,
  values,
  horizontal,
  format,
  height,
}: {
  labels: string[];
  values: number[];
  horizontal: boolean;
  format: (value: number) => string;
  height: number;
}): ReactElement {
  const canvas = useRef<HTMLCanvasElement>(null);
  const dark = useDarkClass();
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!canvas.current || !context) return undefined;
    const style = getComputedStyle(canvas.current);
    const text = style.color;
    const bar = style.getPropertyValue('--color-brand-500').trim() || '#15803d';
    const grid = dark ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.08)';
    const axis = { ticks: { color: text }, grid: { color: grid } };
    const chart = new Chart(context, {
      type: 'bar',
      data: { labels, datasets: [{ data: values, backgroundColor: bar, borderRadius: 4 }] },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        animation: false,
        maintainAspectRatio: false,
        responsive: true,
        scales: {
          x: {
            ...axis,
            ticks: { ...axis.ticks, ...(horizontal ? { callback: (value) => format(Number(value)) } : {}) },
          },
          y: {
            ...axis,
            ticks: { ...axis.ticks, ...(horizontal ? {} : { callback: (value) => format(Number(value)) }) },
          },
        },
        plugins: { tooltip: { callbacks: { label: (item) => format(Number(item.raw)) } } },
      },
    });
    return () => chart.destroy();
  }, [labels, values, horizontal, format, dark]);
  return (
    <div className="relative" style={{ height }}>
      <canvas ref={canvas} data-testid="bar-canvas" />
    </div>
  );
}
