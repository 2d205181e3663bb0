// The receipt as plain text, 42 columns: what an 80 mm thermal printer prints in its standard font
// (Font A, 12 x 24 dots, 576 dots a line). The same text is the printed page (@page 80mm) and the copy/download.

import { formatMoney, formatPercent, formatSatoshis } from './money.js';

export const RECEIPT_WIDTH = 42;

/** Left text and right text on one line, the left cut or wrapped so the right one always fits. */
function columns(left, right, width = RECEIPT_WIDTH) {
  const room = width - right.length - 1;
  const words = wrap(left, room);
  const last = words.pop() ?? '';
  return [...words, last.padEnd(room) + ' ' + right];
}

/** Text wrapped at spaces to `width`, a word longer than that cut. */
function wrap(text, width = RECEIPT_WIDTH) {
  const lines = [];
  let line = '';
  for (const word of String(text).replace(/\s+/g, ' ').trim().split(' ')) {
    for (let piece = word; piece.length > 0; piece = piece.slice(width)) {
      const part = piece.slice(0, width);
      if (!line) line = part;
      else if (line.length + 1 + part.length <= width) line += ' ' + part;
      else {
        lines.push(line);
        line = part;
      }
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

const center = (text) => wrap(text).map((line) => ' '.repeat(Math.floor((RECEIPT_WIDTH - line.length) / 2)) + line);
const rule = (char) => char.repeat(RECEIPT_WIDTH);

/** A local date and time, the same on every printer: "2026-11-23 16:20". */
function stamp(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * The receipt of an order: merchant, lines with modifiers, discount, tax, tip, total, and the payment.
 * The shop is named by its name and its paymail (alias@domain, a name a wallet resolves), the one it chose
 * or none: not by receipt_merchant, the identifier its on-chain receipt commits to.
 * @param {any} order the order as the API answers it
 * @param {{ merchantName?: string, merchantPaymail?: string | null, tipBasisPoints?: number | null,
 *   stablecoin?: { symbol: string, amount: string, txid: string } | null }} [options] `stablecoin`: the order was
 *   paid in it, this amount by this transfer
 */
export function receiptText(order, { merchantName = '', merchantPaymail, tipBasisPoints = null, stablecoin = null } = {}) {
  const money = (minor) => formatMoney(minor, order.currency);
  const out = [];
  const name = merchantName || order.merchant_name || order.merchant_handle;
  const paymail = merchantPaymail === undefined ? order.merchant_paymail : merchantPaymail;
  if (name) out.push(...center(name));
  if (paymail) out.push(...center(paymail));
  out.push('');
  out.push(...columns(`Order ${order.order_number}`, stamp(order.paid_at || order.created_at)));
  if (order.note) out.push(...wrap(`Note: ${order.note}`));
  out.push(rule('-'));
  for (const line of order.lines ?? []) {
    const amount = money(BigInt(line.unit_price_minor) * BigInt(line.quantity));
    out.push(...columns(`${line.quantity} x ${line.name}`, amount));
    for (const modifier of line.modifiers ?? []) out.push(...wrap(`+ ${modifier.name}`, RECEIPT_WIDTH - 2).map((text) => `  ${text}`));
    if (line.quantity > 1) out.push(`  @ ${money(line.unit_price_minor)}`);
  }
  out.push(rule('-'));
  out.push(...columns('Subtotal', money(order.subtotal_minor)));
  if (order.discount_minor > 0) out.push(...columns('Discount', money(-order.discount_minor)));
  // A loyalty reward redeemed on the order (decision 0023): a discount too, named.
  if (order.reward_minor > 0) out.push(...columns(`Reward: ${order.reward}`, money(-order.reward_minor)));
  if (order.tax_minor > 0 || order.tax_jurisdiction) {
    const label = order.prices_include_tax ? 'Tax included' : 'Tax';
    out.push(...columns(label, money(order.tax_minor)));
  }
  if (order.tip_minor > 0) out.push(...columns(tipBasisPoints ? `Tip (${formatPercent(tipBasisPoints)})` : 'Tip', money(order.tip_minor)));
  out.push(rule('='));
  out.push(...columns('TOTAL', money(order.total_minor)));
  out.push(rule('='));
  if (order.card_paid_minor > 0) out.push(...columns('Paid by gift card', money(order.card_paid_minor)));
  if (stablecoin) {
    // Paid in the dollar stablecoin (decision 0036): the tokens sent and the transfer, from its intent.
    out.push(...columns(`Paid in ${stablecoin.symbol}`, stablecoin.amount));
    if (stablecoin.txid) out.push('Transaction:', ...wrap(stablecoin.txid));
  } else if (!(order.card_paid_minor > 0) || order.paid_satoshis > 0)
    out.push(...columns('Paid in BSV', formatSatoshis(order.paid_satoshis ?? 0)));
  for (const payment of order.payments ?? []) out.push('Transaction:', ...wrap(payment.txid));
  if ((order.flags ?? []).includes('overpaid')) out.push(...wrap('Overpaid: the excess is refunded by the merchant.'));
  // Paid in the stablecoin, the order is paid_elsewhere to pos: on paper, paid.
  out.push(...columns('Status', stablecoin ? 'PAID' : String(order.status).toUpperCase()));
  out.push('');
  out.push(...center('Thank you'));
  return out.map((line) => line.trimEnd()).join('\n') + '\n';
}
