import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatDateTime, formatMoney } from '../format.js';
import { OrderRefunds, type Refund } from './order-refunds.js';

type Line = { name: string; quantity: number; unit_price_minor: number; discount_minor: number };
type Payment = { txid: string; via: string; satoshis: number; received_at: string; late: boolean };
type Order = {
  order_number: string;
  status: string;
  currency: string;
  lines: Line[];
  tax_minor: number;
  tip_minor: number;
  total_minor: number;
  prices_include_tax: boolean;
  payments: Payment[];
  note: string;
  created_at: string;
  refunds: Refund[];
  refunded_minor: number;
};
type Receipt = { merchant: string; reference: string; status: string; confirmations: number };

const STATUSES = ['open', 'paid', 'confirmed', 'expired', 'cancelled', 'paid_elsewhere'];
const words = (status: string) => status.replaceAll('_', ' ');

/** Paid with bitcoin: what a refund pays back (pos refuses, in words, an order a card paid). */
const paidInBitcoin = (order: Order) => ['paid', 'confirmed'].includes(order.status) && order.payments.length > 0;

/**
 * `/o/:handle/orders`: the shop's orders, newest first, by status or the number typed: each with its lines,
 * tax, tip and payments (their txids, and the receipt on chain verified on request); an open one confirmed by
 * the txid the customer shows, or cancelled; a paid one refunded, whole, by line or by an amount
 * (order-refunds.tsx). Sales are made at the counter.
 */
export function OrdersPage({ handle }: { handle: string }) {
  const [filter, setFilter] = useState({ status: '', search: '' });
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () => {
    const query = new URLSearchParams({ limit: '50' });
    if (filter.status) query.set('status', filter.status);
    if (filter.search) query.set('search', filter.search);
    return api<Page<Order>>(`/api/v1/orgs/${handle}/orders?${query}`).then(
      (page) => (setOrders(page.data), setProblem(null)),
      (error) => setProblem(describe(error)),
    );
  };
  useEffect(() => void load(), [handle, filter]);
  return (
    <>
      <h1>Orders</h1>
      <p>
        <a class="button" href="/pos">
          Open the counter
        </a>
      </p>
      <form
        class="card"
        aria-label="Find orders"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setFilter({ status: String(form.get('status') ?? ''), search: String(form.get('search') ?? '').trim() });
        }}
      >
        <label class="field">
          <span>Status</span>
          <select name="status" defaultValue="">
            <option value="">Every status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {words(status)}
              </option>
            ))}
          </select>
        </label>
        <Field label="Order number" name="search" maxLength={10} autoComplete="off" hint="Its first characters are enough." />
        <button type="submit">Show</button>
      </form>
      <Problem problem={problem} />
      {orders?.length === 0 && <p>No orders{filter.status || filter.search ? ' match' : ' yet'}.</p>}
      <ul class="entries">
        {(orders ?? []).map((order) => (
          <OrderCard key={order.order_number} handle={handle} order={order} onChanged={load} />
        ))}
      </ul>
    </>
  );
}

function OrderCard({ handle, order, onChanged }: { handle: string; order: Order; onChanged: () => void }) {
  const money = (minor: number) => formatMoney(minor, order.currency);
  const [problem, setProblem] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<Record<string, string>>({});
  const cancel = async () => {
    if (!window.confirm(`Cancel order ${order.order_number}? Nothing has paid it.`)) return;
    try {
      await api(`/api/pos/orders/${order.order_number}/cancel`, { method: 'POST', body: { org_handle: handle } });
      onChanged();
    } catch (error) {
      setProblem(describe(error));
    }
  };
  const verify = async (txid: string) => {
    try {
      const found = await api<Receipt>(`/api/v1/receipts/${txid}`);
      const mined = found.status === 'mined' ? `mined, ${found.confirmations} confirmations` : words(found.status);
      setReceipt({ ...receipt, [txid]: `Receipt on chain for ${found.merchant}, order ${found.reference}: ${mined}.` });
    } catch (error) {
      setReceipt({ ...receipt, [txid]: describe(error) });
    }
  };
  const confirm = useSubmit(async (form) => {
    await api(`/api/pos/orders/${order.order_number}/confirm`, {
      method: 'POST',
      body: { org_handle: handle, txid: String(form.get('txid') ?? '').trim() },
    });
    onChanged();
  });
  return (
    <li class="card">
      <h2>
        Order {order.order_number} <span class="tag">{words(order.status)}</span>
      </h2>
      <p>
        {money(order.total_minor)} · {formatDateTime(order.created_at)}
        {order.note && ` · ${order.note}`}
      </p>
      <details>
        <summary>Lines and payments</summary>
        <table class="lines">
          <caption class="visually-hidden">Lines of order {order.order_number}</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line, index) => (
              <tr key={index}>
                <td>
                  {line.quantity} × {line.name}
                </td>
                <td>{money(line.quantity * line.unit_price_minor - line.discount_minor)}</td>
              </tr>
            ))}
            <tr>
              <td>{order.prices_include_tax ? 'Tax included in the prices' : 'Tax'}</td>
              <td>{money(order.tax_minor)}</td>
            </tr>
            <tr>
              <td>Tip</td>
              <td>{money(order.tip_minor)}</td>
            </tr>
            <tr>
              <th scope="row">Total</th>
              <td>
                <strong>{money(order.total_minor)}</strong>
              </td>
            </tr>
          </tbody>
        </table>
        {order.payments.map((payment) => (
          <div key={payment.txid} class="txid">
            <p>
              Paid {formatDateTime(payment.received_at)} ({words(payment.via)}
              {payment.late ? ', late' : ''}): <code>{payment.txid}</code>
            </p>
            <button type="button" class="secondary" onClick={() => verify(payment.txid)}>
              Verify the receipt
            </button>
            <p role="status">{receipt[payment.txid] ?? ''}</p>
          </div>
        ))}
      </details>
      <p class="actions">
        <a href={`/pay/${order.order_number}`}>Customer page</a>
      </p>
      {(order.refunds.length > 0 || paidInBitcoin(order)) && (
        <OrderRefunds
          handle={handle}
          orderNumber={order.order_number}
          currency={order.currency}
          lines={order.lines}
          refunds={order.refunds}
          refundable={paidInBitcoin(order) && order.refunded_minor < order.total_minor}
          onChanged={onChanged}
        />
      )}
      {order.status === 'open' && (
        <>
          <form onSubmit={confirm.submit} aria-label={`Confirm order ${order.order_number}`}>
            <Field label="Transaction id the customer shows" name="txid" autoComplete="off" maxLength={64} />
            <Problem problem={confirm.problem} />
            <p class="actions">
              <button type="submit" disabled={confirm.busy}>
                Confirm
              </button>
              <button type="button" class="danger" onClick={cancel}>
                Cancel order
              </button>
            </p>
          </form>
          <Problem problem={problem} />
        </>
      )}
    </li>
  );
}
