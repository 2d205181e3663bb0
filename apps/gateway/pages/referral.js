// The buyer's page of a referral link, /r/<id> (decision 0040): the item, its price, who recommended it and
// their share; Buy opens a checkout whose payment goes into a covenant that can only pay the shop and the
// referrer. The page then shows what to pay (the QR, a wallet link, the payment URI), follows the checkout until
// it is paid or expired, and keeps its id in the address (?checkout=rco_...) so a reload shows the same one
// rather than opening another order. A link the shop disabled says so and offers no Buy, while a checkout it
// opened before stays payable. It reads only the public referral routes: no key, nothing private.

import { api, ApiError } from './api.js';
import { formatMoney, formatPercent, formatSatoshis, minorToDecimal } from './money.js';
import { $, showAlert, walletHref } from './ui.js';

const linkId = decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1) ?? '');
const CHECKOUT_ID = /^rco_[A-Za-z0-9_-]{24}$/;
const POLL_MS = 2000;
const FINAL = new Set(['paid', 'expired']);

/** A fresh Idempotency-Key: a doubled or retried Buy answers the same checkout rather than opening another order. */
const newAttempt = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
let attempt = newAttempt();

let link = null;
let shown = null;
let pollTimer = null;
let clockTimer = null;

/** Satoshis in words as the wallet asks for them: "8,000,123 sat (0.08000123 BSV)". */
function satoshisAndBsv(satoshis) {
  const bsv = minorToDecimal(satoshis, 8).replace(/\.?0+$/, '');
  return `${formatSatoshis(satoshis)} (${bsv} BSV)`;
}

/** The address of this page, with or without the checkout it shows. */
function remember(checkoutId) {
  const url = new URL(location.href);
  if (checkoutId) url.searchParams.set('checkout', checkoutId);
  else url.searchParams.delete('checkout');
  history.replaceState(null, '', url);
}

function renderLink() {
  $('loading').hidden = true;
  $('offer').hidden = false;
  $('merchant').textContent = link.org_handle;
  $('item').textContent = link.item_name || 'This item';
  $('referrer').textContent = link.referrer_name;
  const percent = formatPercent(link.commission_basis_points);
  $('share').textContent =
    `${link.referrer_name} receives ${percent} of the sale, paid by the same transaction: ` +
    `your payment goes into a script on the BSV chain that can only pay the shop and ${link.referrer_name}.`;
  // A link the shop disabled sells nothing, whatever its item: it says so in place of the price and the Buy button.
  const closed = Boolean(link.disabled_at);
  const sold = Boolean(link.currency) && !closed;
  $('price').textContent = sold ? formatMoney(link.price_minor, link.currency) : '';
  $('price').hidden = !sold;
  $('share').hidden = closed;
  $('disabled').hidden = !closed;
  $('gone').hidden = sold || closed;
  $('buy-row').hidden = !sold;
  document.title = closed
    ? `${link.org_handle}: not sold through this link`
    : sold
      ? `${link.item_name} from ${link.org_handle}`
      : `${link.org_handle}: no longer sold`;
}

function renderCheckout(checkout) {
  if (shown?.id !== checkout.id) $('copy-note').textContent = '';
  shown = checkout;
  const money = (minor) => formatMoney(minor, checkout.currency);
  const { status } = checkout;
  $('checkout').hidden = false;
  // The total replaces the price once there is one to pay; the item, who recommended it and their share stay
  // (a checkout opened before the shop disabled the link too, in place of the word that it sells nothing).
  $('price').hidden = true;
  $('buy-row').hidden = true;
  $('share').hidden = false;
  $('disabled').hidden = true;
  $('status').dataset.status = status === 'awaiting_payment' || status === 'funded' ? 'open' : status;
  $('status').textContent =
    {
      awaiting_payment: 'Waiting for your payment',
      funded: `Payment received: paying the shop and ${checkout.referrer_name}…`,
      paid: 'Paid — thank you',
      expired: 'This checkout expired',
    }[status] ?? String(status);
  $('to-pay').hidden = status !== 'awaiting_payment';
  $('done').hidden = status !== 'paid';
  $('ended').hidden = status !== 'expired';
  // A checkout opened before the shop disabled the link stays payable; one that ran out cannot be started again.
  const closed = Boolean(link.disabled_at);
  $('still-open').hidden = !(closed && status === 'awaiting_payment');
  $('ended-again').hidden = closed;
  $('ended-closed').hidden = !closed;
  $('again-row').hidden = closed;
  $('checkout-title').textContent = { paid: 'Your order', expired: 'Your checkout' }[status] ?? 'Pay from your BSV wallet';
  $('order-line').textContent = checkout.order_number;
  // Paid, the order number is said in a sentence of its own.
  $('order-row').hidden = status === 'paid';
  document.title = `${checkout.item_name}: ${$('status').textContent}`;
  if (status === 'awaiting_payment') {
    const tax = checkout.tax_minor > 0 ? ` (${money(checkout.tax_minor)} tax included)` : '';
    $('total').textContent = `Total ${money(checkout.total_minor)}${tax}`;
    $('satoshis').textContent =
      `Your wallet pays ${satoshisAndBsv(checkout.funding_satoshis)}, ` +
      `which includes a network fee of ${formatSatoshis(checkout.fee_satoshis)}.`;
    const qr = `/api/v1/referral-checkouts/${encodeURIComponent(checkout.id)}/qr`;
    if ($('qr').getAttribute('src') !== qr) $('qr').src = qr;
    const href = walletHref(checkout.pay_uri);
    if (href) $('wallet-link').href = href;
    else $('wallet-link').removeAttribute('href');
    $('pay-uri').textContent = checkout.pay_uri;
    tick();
  }
  if (status === 'paid') {
    $('order-number').textContent = checkout.order_number;
    $('done-commission').textContent = `${checkout.referrer_name} received ${money(checkout.commission_minor)} from the same transaction.`;
  }
  if (FINAL.has(status)) clearInterval(clockTimer);
}

/** The time left to pay, to the second, beside the QR (not in the live status: it would be read out each second). */
function tick() {
  if (!shown || shown.status !== 'awaiting_payment') return;
  const left = Math.max(0, Math.floor((new Date(shown.expires_at).getTime() - Date.now()) / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, '0');
  $('time-left').textContent = left > 0 ? `Time left to pay: ${minutes}:${seconds}` : 'The time to pay is up.';
}

/** Reads the checkout every couple of seconds until it is paid or expired (reading a funded one also finishes it). */
function follow(checkoutId) {
  clearTimeout(pollTimer);
  clearInterval(clockTimer);
  clockTimer = setInterval(tick, 1000);
  const poll = async () => {
    try {
      const checkout = await api('GET', `/api/v1/referral-checkouts/${encodeURIComponent(checkoutId)}`, { auth: false });
      if (checkoutId !== shown?.id) return;
      showAlert('');
      renderCheckout(checkout);
      if (FINAL.has(checkout.status)) return;
    } catch (error) {
      if (checkoutId !== shown?.id) return;
      showAlert(`Could not check the payment: ${error.message} Trying again…`);
    }
    pollTimer = setTimeout(poll, POLL_MS);
  };
  pollTimer = setTimeout(poll, POLL_MS);
}

function show(checkout) {
  remember(checkout.id);
  renderCheckout(checkout);
  if (!FINAL.has(checkout.status)) follow(checkout.id);
}

async function buy() {
  $('buy').disabled = true;
  showAlert('');
  try {
    const checkout = await api('POST', `/api/v1/referral-links/${encodeURIComponent(link.id)}/checkouts`, {
      auth: false,
      idempotencyKey: attempt,
    });
    show(checkout);
    // The Buy button is gone: what to do next is in the checkout.
    $('checkout-title').focus();
  } catch (error) {
    if (error instanceof ApiError && error.details?.reason === 'link_disabled') {
      // The shop disabled the link while this page was open: it says so as a link read disabled does.
      link = { ...link, disabled_at: link.disabled_at ?? new Date().toISOString() };
      renderLink();
      $('disabled').focus();
      return;
    }
    showAlert(
      error instanceof ApiError && error.code === 'rate_limited'
        ? `Too many checkouts were opened from here just now: ${error.message}`
        : `The checkout could not be opened: ${error.message}`,
    );
  } finally {
    $('buy').disabled = false;
  }
}

function startAgain() {
  clearTimeout(pollTimer);
  clearInterval(clockTimer);
  shown = null;
  attempt = newAttempt();
  remember(null);
  showAlert('');
  $('checkout').hidden = true;
  renderLink();
  $('buy').focus();
}

$('buy').addEventListener('click', buy);
$('again').addEventListener('click', startAgain);
$('copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText($('pay-uri').textContent);
    $('copy-note').textContent = 'Copied: paste it in your wallet.';
  } catch {
    $('copy-note').textContent = 'Select the link above to copy it.';
  }
});

/** The checkout the address names, when it is this link's; null when there is none to show. */
async function checkoutInAddress() {
  const id = new URL(location.href).searchParams.get('checkout');
  if (!id) return null;
  if (CHECKOUT_ID.test(id)) {
    try {
      const checkout = await api('GET', `/api/v1/referral-checkouts/${encodeURIComponent(id)}`, { auth: false });
      if (checkout.referral_link_id === link.id) return checkout;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  remember(null);
  showAlert('The checkout in this address was not found: press Buy to start a new one.');
  return null;
}

async function start() {
  try {
    link = await api('GET', `/api/v1/referral-links/${encodeURIComponent(linkId)}`, { auth: false });
  } catch (error) {
    $('loading').hidden = true;
    const missing = error instanceof ApiError && (error.status === 404 || error.code === 'validation_failed');
    if (missing) {
      $('item').textContent = 'Link not found';
      document.title = 'Link not found';
    }
    showAlert(missing ? 'This referral link was not found: check the address you were given.' : error.message);
    return;
  }
  renderLink();
  try {
    const checkout = await checkoutInAddress();
    if (checkout) show(checkout);
  } catch (error) {
    showAlert(`Your checkout could not be read: ${error.message}`);
  }
}

start();
