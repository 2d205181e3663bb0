// The customer's page for an order, /pay/<order_number>: what to pay, the QR and a wallet link, and the
// status as it changes. It reads only the public order and intent routes: no key, nothing private. Only the
// shop's staff may open a stablecoin intent for an order, so the page shows one only when its link names it
// (/pay/<order_number>#spi_..., as the counter links it): then the order is paid in the stablecoin instead.

import { api, ApiError, orderOf } from './api.js';
import { formatMoney, formatSatoshis } from './money.js';
import { stablecoinPayment } from './stablecoin-payment.js';
import { watchOrder } from './order-watch.js';
import { $, element, showAlert, statusText, walletHref } from './ui.js';

const orderNumber = decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1) ?? '');
/** The stablecoin intent the link names, if any: in the fragment, which no request carries. */
const intentId = /^#(spi_[A-Za-z0-9_-]{32})$/.exec(location.hash)?.[1] ?? null;
let usdx = null;

function render(order) {
  const money = (minor) => formatMoney(minor, order.currency);
  $('loading').hidden = true;
  $('order').hidden = false;
  // The shop by its name and its paymail, a name a wallet resolves (none without one); the order's events
  // carry neither, so what the order's read said stays.
  if ('merchant_name' in order || !$('merchant').textContent)
    $('merchant').textContent = [order.merchant_name || order.merchant_handle, order.merchant_paymail].filter(Boolean).join(' · ');
  $('title').textContent = `Order ${order.order_number}`;
  document.title = `Order ${order.order_number}: ${statusText(order)}`;
  $('total').textContent = money(order.total_minor);
  const open = order.status === 'open';
  $('satoshis').textContent = open ? `${formatSatoshis(order.due_satoshis)} to pay` : `${formatSatoshis(order.paid_satoshis)} paid`;
  $('status').textContent = ['paid', 'confirmed', 'paid_elsewhere'].includes(order.status)
    ? `${statusText(order)}. Thank you!`
    : statusText(order);
  $('status').dataset.status = order.status;
  $('to-pay').hidden = !open || usdx !== null;
  // Satoshis say nothing of an order paid elsewhere, or being paid in the stablecoin.
  $('satoshis').hidden = order.status === 'paid_elsewhere' || (open && usdx !== null);
  if (order.paid_elsewhere_by === 'stablecoin' && usdx?.intent()?.status === 'requires_payment') usdx.refresh();
  if (open) {
    const number = encodeURIComponent(order.order_number);
    // A part payment changes what is due, and the QR asks for the rest: load the image again then.
    if ($('qr').dataset.due !== String(order.due_satoshis)) {
      $('qr').dataset.due = String(order.due_satoshis);
      $('qr').src = `/api/pos/orders/${number}/qr?format=svg`;
    }
    const href = walletHref(order.bip21_uri) ?? walletHref(order.pay_uri);
    if (href) $('wallet-link').href = href;
    else $('wallet-link').removeAttribute('href');
    $('address').textContent = order.address ?? '';
    $('expiry').textContent = order.expires_at ? `Pay by ${new Date(order.expires_at).toLocaleTimeString()}` : '';
  }
  $('lines').replaceChildren(
    ...(order.lines ?? []).map((line) =>
      element(
        'li',
        { class: 'cart-line' },
        element(
          'span',
          { class: 'line-name' },
          `${line.quantity} × ${line.name}`,
          (line.modifiers ?? []).length ? element('small', {}, line.modifiers.map((modifier) => modifier.name).join(', ')) : '',
        ),
        element('span', { class: 'line-amount' }, money(BigInt(line.unit_price_minor) * BigInt(line.quantity))),
      ),
    ),
  );
  const rows = [['Subtotal', money(order.subtotal_minor)]];
  if (order.discount_minor > 0) rows.push(['Discount', money(-order.discount_minor)]);
  if (order.tax_minor > 0) rows.push([order.prices_include_tax ? 'Tax included' : 'Tax', money(order.tax_minor)]);
  if (order.tip_minor > 0) rows.push(['Tip', money(order.tip_minor)]);
  rows.push(['Total', money(order.total_minor)]);
  $('totals').replaceChildren(...rows.flatMap(([term, value]) => [element('dt', {}, term), element('dd', {}, value)]));
}

$('copy-address').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText($('address').textContent);
    $('copy-note').textContent = 'Copied.';
  } catch {
    $('copy-note').textContent = 'Select the address to copy it.';
  }
});

async function start() {
  try {
    const order = orderOf(await api('GET', `/api/pos/orders/${encodeURIComponent(orderNumber)}`, { auth: false }));
    await showIntent(order);
    render(order);
    watchOrder(order.order_number, { onOrder: render });
  } catch (error) {
    $('loading').hidden = true;
    showAlert(error instanceof ApiError && error.status === 404 ? `There is no order ${orderNumber}: check the link.` : error.message);
  }
}

/** The intent the link names, drawn above the bitcoin QR's place, when it is this order's. */
async function showIntent(order) {
  if (!intentId) return;
  try {
    const answer = await api('GET', `/api/v1/stablecoin/intents/${encodeURIComponent(intentId)}`, { auth: false });
    const intent = answer?.intent ?? answer;
    if (intent.order_number !== order.order_number) return;
    $('usdx-panel').hidden = false;
    usdx = stablecoinPayment($('usdx-panel'), { heading: 'h2', prefix: 'usdx' });
    usdx.show(intent);
  } catch {
    // An intent that cannot be read leaves the page as it is: the order can still be paid in bitcoin.
  }
}

start();
