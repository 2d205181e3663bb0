// The customer's page for an order, /pay/<order_number>: what to pay, the QR and a wallet link, and the
// status as it changes. It reads only the public order routes: no key, nothing private.

import { api, ApiError, orderOf } from './api.js';
import { formatMoney, formatSatoshis } from './money.js';
import { watchOrder } from './order-watch.js';
import { $, element, showAlert, statusText, walletHref } from './ui.js';

const orderNumber = decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1) ?? '');

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
  $('to-pay').hidden = !open;
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
    render(order);
    watchOrder(order.order_number, { onOrder: render });
  } catch (error) {
    $('loading').hidden = true;
    showAlert(error instanceof ApiError && error.status === 404 ? `There is no order ${orderNumber}: check the link.` : error.message);
  }
}

start();
