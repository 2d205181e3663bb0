import { formatMoney } from './format.js';

export type AccountRow = { code: string; name: string; debit_minor: number; credit_minor: number };

/** Accounts with their debit and credit in one currency: a journal entry's lines, or a trial balance. */
export function DebitsAndCredits({ rows, currency, caption }: { rows: AccountRow[]; currency: string; caption: string }) {
  const money = (minor: number) => (minor ? formatMoney(minor, currency) : '');
  return (
    <table class="lines">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Debit</th>
          <th scope="col">Credit</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={`${row.code}-${i}`}>
            <td>
              {row.code} {row.name}
            </td>
            <td>{money(row.debit_minor)}</td>
            <td>{money(row.credit_minor)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
