import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { BarChart } from '../bar-chart.js';
import { DateRange } from '../date-range.js';
import { DebitsAndCredits } from '../debits-and-credits.js';
import { describe, Problem } from '../form.js';
import { HeatMap, type WeekHour } from '../heat-map.js';
import { dateDaysAgo, formatMoney, shopZone } from '../format.js';

type SalesRow = {
  period: string;
  currency: string;
  orders: number;
  gross_minor: number;
  tax_minor: number;
  net_after_refunds_minor: number;
  refunds_minor: number;
  refunds_tax_minor: number;
};
type TopItem = { currency: string; rank: number; name: string; quantity: number; gross_minor: number };
type BusyCell = WeekHour & { currency: string };
type Account = { code: string; name: string; debit_minor: number; credit_minor: number; balance_minor: number };
type Balances = { data: { currency: string; accounts: Account[] }[] };
type Reports = { sales: SalesRow[]; top: TopItem[]; busy: BusyCell[]; balances: Balances['data'] };

/**
 * `/o/:handle/reports`: the books at a glance, in the shop's time zone: sales by day or month, the best
 * sellers and the busy hours (a heat map by day and hour) as charts (Chart.js), and the trial balance, each currency apart.
 */
export function ReportsPage({ handle }: { handle: string }) {
  const [from, setFrom] = useState(dateDaysAgo(6));
  const [to, setTo] = useState(dateDaysAgo(0));
  const [period, setPeriod] = useState<'day' | 'month'>('day');
  const [reports, setReports] = useState<Reports | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const range = `from=${from}&to=${to}&time_zone=${encodeURIComponent(shopZone())}`;
    const base = `/api/v1/orgs/${handle}/reports`;
    Promise.all([
      api<{ data: SalesRow[] }>(`${base}/sales?${range}&period=${period}`),
      api<{ data: TopItem[] }>(`${base}/top-items?${range}`),
      api<{ by_weekday: BusyCell[] }>(`${base}/busy-hours?${range}`),
      api<Balances>(`${base}/trial-balance?at=${to}&time_zone=${encodeURIComponent(shopZone())}`),
    ]).then(
      ([sales, top, busy, balances]) => {
        setReports({ sales: sales.data, top: top.data, busy: busy.by_weekday, balances: balances.data });
        setProblem(null);
      },
      (error) => setProblem(describe(error)),
    );
  }, [handle, from, to, period]);

  const currencies = [...new Set([...(reports?.sales ?? []), ...(reports?.top ?? [])].map((row) => row.currency))];
  return (
    <>
      <h1>Reports</h1>
      <section class="card" aria-labelledby="report-range">
        <h2 id="report-range">Dates ({shopZone()})</h2>
        <DateRange from={from} to={to} onFrom={setFrom} onTo={setTo}>
          <label class="field">
            <span>Sales by</span>
            <select value={period} onChange={(event) => setPeriod((event.target as HTMLSelectElement).value as 'day' | 'month')}>
              <option value="day">Day</option>
              <option value="month">Month</option>
            </select>
          </label>
        </DateRange>
        <Problem problem={problem} />
      </section>
      {reports && currencies.length === 0 && <p>No sales in these dates yet.</p>}
      {reports &&
        currencies.map((currency) => {
          const money = (minor: number) => formatMoney(minor, currency);
          const sales = reports.sales.filter((row) => row.currency === currency);
          const top = reports.top.filter((row) => row.currency === currency);
          const busy = reports.busy.filter((row) => row.currency === currency);
          return (
            <section class="card" key={currency} aria-label={`Sales in ${currency}`}>
              <BarChart
                title={`Sales by ${period} (${currency})`}
                labels={sales.map((row) => row.period)}
                series={[
                  { label: 'Gross', values: sales.map((row) => row.gross_minor) },
                  { label: 'Net of tax and refunds', values: sales.map((row) => row.net_after_refunds_minor) },
                  { label: 'Refunds, tax included', values: sales.map((row) => row.refunds_minor) },
                  { label: 'Tax refunded', values: sales.map((row) => row.refunds_tax_minor) },
                ]}
                format={money}
              />
              <BarChart
                title={`Top items (${currency})`}
                labels={top.map((row) => row.name)}
                series={[{ label: 'Gross', values: top.map((row) => row.gross_minor) }]}
                format={money}
                horizontal
              />
              <HeatMap title={`Busy hours (${currency}, orders by day and hour)`} cells={busy} />
            </section>
          );
        })}
      {reports?.balances.map(({ currency, accounts }) => (
        <section class="card" key={`balances-${currency}`} aria-labelledby={`balances-${currency}`}>
          <h2 id={`balances-${currency}`}>
            Trial balance at {to} ({currency})
          </h2>
          <DebitsAndCredits caption={`Trial balance at ${to} (${currency})`} currency={currency} rows={accounts} />
        </section>
      ))}
    </>
  );
}
