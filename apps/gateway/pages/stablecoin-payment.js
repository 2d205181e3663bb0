// A stablecoin payment intent as the customer sees it (decision 0036), on the counter screen and the customer
// page: the amount in the token, the address and its QR code, the expiry, the status as it changes (the intent
// polled), and "Paid already? Paste the transaction id", which settles the intent with that txid: how a wallet
// that cannot call the API tells the shop. All reads and the settle are public: the intent's id is the key.

import { api, ApiError } from './api.js';
import { formatMoney } from './money.js';
import { intentStatusText, settleRefusalText, tokenAmountText } from './stablecoin-text.js';
import { element } from './ui.js';

const POLL_MS = 2000;
/** The order status styles the status line: the intent's words mapped onto them. */
const STATUS_STYLE = { requires_payment: 'open', succeeded: 'paid', expired: 'expired', canceled: 'cancelled' };

const intentPath = (id) => `/api/v1/stablecoin/intents/${encodeURIComponent(id)}`;

/**
 * Draws the intent into `container` (its children are replaced) and follows it until it is no longer waiting.
 * `heading` is the level of its title in the page ('h2', 'h3'); `prefix` keeps its ids apart from the page's.
 * `onIntent(intent)` hears every new state. Returns `show(intent)` (draw another, or a fresher answer),
 * `refresh()` (read it now: its order was just seen paid), `stop()` and `intent()`.
 */
export function stablecoinPayment(container, { heading = 'h2', prefix = 'usdx', onIntent = () => {} } = {}) {
  const id = (name) => `${prefix}-${name}`;
  const title = element(heading, { id: id('title'), tabindex: -1 }, 'Pay in stablecoin');
  const amount = element('p', { class: 'big', id: id('amount') });
  const worth = element('p', { class: 'hint', id: id('worth') });
  const qr = element('img', { id: id('qr'), width: 280, height: 280, alt: '' });
  const figure = element('figure', { class: 'qr' }, qr, element('figcaption', {}, 'Scan the address with a stablecoin wallet'));
  const address = element('p', { class: 'mono wrap', id: id('address') });
  const copy = element('button', { type: 'button', id: id('copy') }, 'Copy address');
  const copied = element('span', { class: 'hint', role: 'status' });
  const status = element('p', { class: 'status', id: id('status'), role: 'status', 'aria-live': 'polite' });
  const expiry = element('p', { class: 'hint', id: id('expiry') });
  const facts = element('dl', { class: 'facts' });
  const txid = element('input', {
    id: id('txid'),
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: 64,
    'aria-describedby': id('txid-hint'),
  });
  const settle = element('button', { type: 'submit' }, 'Check payment');
  const refusal = element('p', { class: 'error', role: 'alert', id: id('refusal'), hidden: true });
  const form = element(
    'form',
    { class: 'confirm-form', id: id('settle') },
    element('label', { for: id('txid') }, 'Paid already? Paste the transaction id'),
    txid,
    element('p', { class: 'hint', id: id('txid-hint') }, 'The id your wallet showed when it sent the transfer: 64 letters and digits.'),
    settle,
    refusal,
  );
  const toPay = element(
    'div',
    { id: id('to-pay') },
    figure,
    element('p', {}, element('strong', {}, 'Send to this address')),
    address,
    element('p', {}, copy, ' ', copied),
    expiry,
    form,
  );
  const about = element('details', {}, element('summary', {}, 'About the token'), facts);
  container.replaceChildren(title, amount, worth, status, toPay, about);

  let current = null;
  let timer = null;
  let stopped = false;

  const say = (text) => {
    refusal.textContent = text;
    refusal.hidden = !text;
  };

  function show(intent) {
    const fresh = current?.id !== intent.id;
    if (fresh) stopped = false;
    current = intent;
    const payment = intent.payment;
    const tokens = tokenAmountText(payment);
    title.textContent = `Pay in ${payment.symbol}`;
    amount.textContent = tokens;
    worth.textContent = `${formatMoney(intent.amount_cents, intent.currency || 'USD')} in ${payment.symbol}, a dollar stablecoin`;
    if (fresh) {
      qr.src = `${intentPath(intent.id)}/qr?format=svg`;
      qr.alt = `QR code of the address to send ${tokens} to`;
      txid.value = '';
      say('');
    }
    address.textContent = payment.address;
    status.textContent = intentStatusText(intent);
    status.dataset.status = STATUS_STYLE[intent.status] ?? intent.status;
    const waiting = intent.status === 'requires_payment';
    toPay.hidden = !waiting;
    expiry.textContent = waiting ? `Pay by ${new Date(intent.expires_at).toLocaleTimeString()}` : '';
    const paid = (intent.transfers ?? []).find((transfer) => transfer.outcome === 'accepted');
    const rows = [
      ['Token', `${payment.symbol}, ${payment.decimals} decimals`],
      ['Token id', payment.token_id],
      ['Cosigner', payment.cosigner_public_key],
      ...(paid ? [['Paid by', paid.txid]] : []),
    ];
    facts.replaceChildren(...rows.flatMap(([term, value]) => [element('dt', {}, term), element('dd', { class: 'mono wrap' }, value)]));
    onIntent(intent);
    if (waiting && !stopped) schedule();
    else clearTimeout(timer);
  }

  /** Reads the intent now; true when the answer was drawn. */
  async function refresh() {
    if (stopped || !current) return false;
    const asked = current.id;
    try {
      const { intent } = wrap(await api('GET', intentPath(asked), { auth: false }));
      if (stopped || intent.id !== current?.id) return false;
      show(intent);
      return true;
    } catch {
      // A failed read changes nothing on the screen: the next one may answer.
      return false;
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!(await refresh()) && !stopped) schedule();
    }, POLL_MS);
  }

  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(address.textContent);
      copied.textContent = 'Copied.';
    } catch {
      copied.textContent = 'Select the address to copy it.';
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!current) return;
    const pasted = txid.value.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(pasted)) return say('A transaction id is 64 letters (a to f) and digits: paste it whole.');
    say('');
    settle.disabled = true;
    try {
      const { intent } = wrap(await api('POST', `${intentPath(current.id)}/settle`, { auth: false, body: { txid: pasted } }));
      show(intent);
    } catch (error) {
      say(settleRefusalText(error instanceof ApiError ? error : { message: String(error) }, current));
    } finally {
      settle.disabled = false;
    }
  });

  return {
    show,
    refresh,
    intent: () => current,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** The intent of an answer: the intent itself, or `{intent}`. */
function wrap(answer) {
  return { intent: answer?.intent ?? answer };
}
