// The payer's page for a pay link, /l/<id>: the memo and the amount (or a choice within the link's
// bounds), then an order is opened for it and the payer goes to that order's page, /pay/<order_number>.
// It reads only the public pay link routes: no key, nothing private. pos takes the amount from the
// link's signed terms; the only thing sent is the amount chosen, which pos checks against the bounds.

import { api, ApiError, orderOf } from './api.js';
import { formatMoney, parseMoney } from './money.js';
import { $, showAlert } from './ui.js';

const linkId = decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1) ?? '');

// One order per amount this page asks for: a retried or doubled Pay answers the same order rather than
// opening another (one address holds at most a few unpaid orders of a limited link, decision 0024).
const attempt = crypto.randomUUID();

const CLOSED = {
  disabled: 'This link no longer takes payments.',
  expired: 'This link has expired.',
  used_up: 'This link has been paid as many times as it allows.',
};

function render(link) {
  const { terms } = link;
  const money = (minor) => formatMoney(minor, terms.currency);
  $('loading').hidden = true;
  $('merchant').textContent = terms.merchant_handle;
  $('memo').textContent = terms.memo;
  document.title = `Pay ${terms.merchant_handle}: ${terms.memo}`;
  if (link.status !== 'active') {
    $('closed').hidden = false;
    $('closed').textContent = CLOSED[link.status] ?? 'This link takes no payment now.';
    return;
  }
  $('pay-form').hidden = false;
  const fixed = terms.amount_minor !== null;
  $('amount').textContent = fixed ? money(terms.amount_minor) : '';
  $('amount').hidden = !fixed;
  $('choose').hidden = fixed;
  $('chosen').required = !fixed;
  if (!fixed) $('bounds').textContent = `${money(terms.min_minor)} to ${money(terms.max_minor)}`;
  $('expiry').textContent = terms.expires_at ? `Open until ${new Date(terms.expires_at).toLocaleString()}` : '';
  $('pay-form').addEventListener('submit', (event) => {
    event.preventDefault();
    pay(link);
  });
}

/** The amount typed, in minor units, within the bounds; or null with the reason shown. */
function chosenAmount(terms) {
  const minor = parseMoney($('chosen').value, terms.currency);
  const inBounds = minor !== null && BigInt(minor) >= BigInt(terms.min_minor) && BigInt(minor) <= BigInt(terms.max_minor);
  $('chosen-error').textContent = inBounds
    ? ''
    : `Enter an amount from ${formatMoney(terms.min_minor, terms.currency)} to ${formatMoney(terms.max_minor, terms.currency)}.`;
  return inBounds ? minor : null;
}

async function pay(link) {
  const { terms } = link;
  const body = {};
  if (terms.amount_minor === null) {
    const minor = chosenAmount(terms);
    if (minor === null) return;
    body.amount_minor = minor;
  }
  $('pay').disabled = true;
  showAlert('');
  try {
    const order = orderOf(
      await api('POST', `/api/v1/pay-links/${encodeURIComponent(terms.id)}/orders`, {
        body,
        auth: false,
        idempotencyKey: `${attempt}:${body.amount_minor ?? terms.amount_minor}`,
      }),
    );
    location.assign(`/pay/${encodeURIComponent(order.order_number)}`);
  } catch (error) {
    $('pay').disabled = false;
    showAlert(error.message);
  }
}

async function start() {
  try {
    render(await api('GET', `/api/v1/pay-links/${encodeURIComponent(linkId)}`, { auth: false }));
  } catch (error) {
    $('loading').hidden = true;
    showAlert(error instanceof ApiError && error.status === 404 ? 'There is no such pay link: check the address.' : error.message);
  }
}

start();
