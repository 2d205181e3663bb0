import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { ChartFigure } from './chart-figure.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export type Series = { label: string; values: number[] };

/**
 * A bar chart (Chart.js, on a canvas) with the same figures as a table beside it for screen readers and for
 * reading exact amounts: the canvas is a picture of the table. `format` writes a value as the table and the
 * tooltips show it (money in the organisation's currency).
 */
export function BarChart({
  title,
  labels,
  series,
  format,
  horizontal = false,
}: {
  title: string;
  labels: string[];
  series: Series[];
  format: (value: number) => string;
  horizontal?: boolean;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: COLORS[i % COLORS.length] })),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: { display: series.length > 1 },
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${format(item.parsed[horizontal ? 'x' : 'y'] ?? 0)}` } },
        },
        scales: {
          [horizontal ? 'x' : 'y']: {
            beginAtZero: true,
            ticks: { precision: 0, callback: (value: string | number) => format(Number(value)) },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [labels.join('\0'), JSON.stringify(series)]);
  return (
    <ChartFigure
      title={title}
      canvas={canvas}
      head={['Period', ...series.map((s) => s.label)]}
      rows={labels.map((label, row) => [label, series.map((s) => format(s.values[row] ?? 0))])}
    />
  );
}

const COLORS = ['#1d4ed8', '#059669', '#b45309', '#7c3aed'];
