import { CategoryScale, Chart, Tooltip } from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { useEffect, useRef } from 'preact/hooks';
import { ChartFigure } from './chart-figure.js';

Chart.register(MatrixController, MatrixElement, CategoryScale, Tooltip);

export type WeekHour = { weekday: number; hour: number; orders: number };

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
/** Monday to Sunday in the reader's language (5 January 2026 was a Monday). */
const WEEKDAYS = Array.from({ length: 7 }, (_, day) =>
  new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2026, 0, 5 + day)),
);

/**
 * When the shop is busy: a heat map (Chart.js's matrix chart) of orders by day of the week and hour of the
 * day, darker the more orders; the same figures in a table beside it for screen readers and exact counts.
 */
export function HeatMap({ title, cells }: { title: string; cells: WeekHour[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const most = Math.max(1, ...cells.map((cell) => cell.orders));
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: 'Orders',
            data: cells.map((cell) => ({ x: HOURS[cell.hour]!, y: WEEKDAYS[cell.weekday - 1]!, v: cell.orders })),
            backgroundColor: (context) => `rgba(29, 78, 216, ${0.08 + (0.92 * ((context.raw as { v: number }).v ?? 0)) / most})`,
            width: ({ chart: c }) => (c.chartArea?.width ?? 0) / 24 - 1,
            height: ({ chart: c }) => (c.chartArea?.height ?? 0) / 7 - 1,
          },
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: () => '',
              label: (item) => {
                const point = item.raw as { x: string; y: string; v: number };
                return `${point.y} ${point.x}:00: ${point.v} order${point.v === 1 ? '' : 's'}`;
              },
            },
          },
        },
        scales: {
          x: { type: 'category', labels: HOURS, offset: true, grid: { display: false }, ticks: { autoSkip: true, maxRotation: 0 } },
          y: { type: 'category', labels: WEEKDAYS, offset: true, reverse: false, grid: { display: false } },
        },
      },
    });
    return () => chart.destroy();
  }, [JSON.stringify(cells)]);
  const count = (weekday: number, hour: number) => cells.find((cell) => cell.weekday === weekday && cell.hour === hour)?.orders ?? 0;
  return (
    <ChartFigure
      title={title}
      canvas={canvas}
      head={['Day', ...HOURS.map((hour) => `${hour}:00`)]}
      rows={WEEKDAYS.map((day, index) => [day, HOURS.map((_, hour) => String(count(index + 1, hour)))])}
    />
  );
}
