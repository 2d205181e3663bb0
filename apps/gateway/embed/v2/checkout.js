/*! Commerce Toolkit checkout.js v2: the <ctk-buy-button> element (docs/decisions/0018-commerce-checkout.md). */
// One classic script, no dependencies. The merchant pastes the script tag and the element; the element opens
// a modal dialog in its own shadow root, creates a checkout through the Commerce API of the gateway that
// served this file, shows the QR and a wallet link, follows the order's event stream (polling the checkout's
// status when the stream cannot be had) and tells the host page `checkout.paid` / `checkout.expired`.
// v2 adds the dollar stablecoin beside bitcoin (decision 0036): "Pay in stablecoin" opens the checkout's
// stablecoin intent (no key: the checkout's public token is enough), shows the token amount, the address and
// its QR, follows the intent, and takes a pasted transaction id for a wallet that cannot tell the shop itself.
// This file is served at a versioned, immutable URL and pinned by an SRI hash: v2 never changes once
// released; a change is a new version beside it (v1 is still served as it was).
(() => {
  'use strict';
  const TAG = 'ctk-buy-button';
  if (typeof window === 'undefined' || !window.customElements || window.customElements.get(TAG)) return;

  const SCRIPT_PATH = '/checkout/v2/checkout.js';
  const script = document.currentScript || document.querySelector(`script[src$="${SCRIPT_PATH}"]`);
  /** The API is the origin this script came from. */
  const API_BASE = new URL(script && script.src ? script.src : location.href).origin;
  const POLL_MS = 2000;
  const RETRY_MS = 1000;
  const PAID = new Set(['paid', 'confirmed']);
  const FINAL = new Set(['paid', 'confirmed', 'expired', 'cancelled']);
  /** An order's states on its stream that end the checkout: paid in the stablecoin, it is paid_elsewhere. */
  const ORDER_FINAL = new Set([...FINAL, 'paid_elsewhere']);

  const CSS = `
    :host { all: initial; display: inline-block; font: 16px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1d1d1f; }
    :host([hidden]) { display: none; }
    [hidden] { display: none !important; }
    * { box-sizing: border-box; }
    button, a { font: inherit; }
    .buy { appearance: none; border: 0; border-radius: 8px; padding: 10px 20px; background: #1f4fd6; color: #fff;
      font-weight: 600; cursor: pointer; text-transform: none; letter-spacing: normal; }
    .buy:hover { background: #1a43b8; }
    .buy:focus-visible, dialog button:focus-visible, dialog a:focus-visible { outline: 3px solid #8fb0ff; outline-offset: 2px; }
    dialog { width: min(420px, calc(100vw - 24px)); max-height: calc(100vh - 24px); overflow: auto; border: 0; border-radius: 14px;
      padding: 20px; color: #1d1d1f; background: #fff; box-shadow: 0 12px 40px rgba(0, 0, 0, .25); font: inherit; text-align: left; }
    dialog::backdrop { background: rgba(15, 20, 30, .55); }
    .head { display: flex; align-items: center; justify-content: space-between; gap: 12px; margin: 0 0 8px; }
    h2 { margin: 0; font-size: 1.15rem; font-weight: 700; }
    .close { appearance: none; border: 0; background: transparent; font-size: 1.5rem; line-height: 1; padding: 4px 8px; cursor: pointer; color: #555; }
    table { width: 100%; border-collapse: collapse; margin: 8px 0; font-size: .95rem; }
    td { padding: 4px 0; vertical-align: top; }
    td.amount { text-align: right; white-space: nowrap; padding-left: 12px; }
    tfoot td { border-top: 1px solid #e3e3e8; }
    tr.total td { font-weight: 700; font-size: 1.05rem; }
    .sats { margin: 0 0 12px; color: #444; text-align: right; font-size: .9rem; }
    .pay { text-align: center; }
    .qr { display: block; width: 220px; height: 220px; margin: 8px auto; background: #fff; }
    .wallet { display: inline-block; margin: 6px 0; padding: 10px 18px; border-radius: 8px; background: #1f4fd6; color: #fff;
      text-decoration: none; font-weight: 600; }
    .alt { display: block; margin: 4px 0; color: #1f4fd6; font-size: .85rem; }
    .status { margin: 10px 0; font-weight: 600; }
    .expiry { margin: 4px 0; color: #555; font-size: .85rem; }
    .done { text-align: center; }
    .tick { font-size: 2.4rem; color: #1a7f37; margin: 4px 0; }
    .error { color: #b3261e; }
    .actions { display: flex; justify-content: flex-end; gap: 8px; margin-top: 12px; }
    .actions button { appearance: none; border: 1px solid #c8c8d0; border-radius: 8px; padding: 8px 16px; background: #fff; color: #1d1d1f; cursor: pointer; }
    .actions button.primary { border-color: #1f4fd6; background: #1f4fd6; color: #fff; }
    .other { appearance: none; display: block; margin: 10px auto 0; padding: 8px 16px; border: 1px solid #1f4fd6; border-radius: 8px;
      background: #fff; color: #1f4fd6; font-weight: 600; cursor: pointer; }
    .subhead { margin: 4px 0 0; font-size: 1rem; font-weight: 700; outline: none; }
    .tokens { margin: 4px 0 0; font-size: 1.6rem; font-weight: 700; }
    .worth { margin: 0 0 4px; color: #555; font-size: .85rem; }
    .address { margin: 4px 0; font: .85rem/1.4 ui-monospace, Menlo, monospace; overflow-wrap: anywhere; }
    .copy { appearance: none; border: 1px solid #c8c8d0; border-radius: 8px; padding: 6px 12px; background: #fff; color: #1d1d1f; cursor: pointer; }
    .settle { margin: 12px 0 0; text-align: left; }
    .settle label { display: block; font-weight: 600; font-size: .9rem; margin-bottom: 4px; }
    .settle input { width: 100%; padding: 8px; border: 1px solid #8a8a94; border-radius: 8px; font: .85rem ui-monospace, Menlo, monospace; }
    .settle button { appearance: none; margin-top: 6px; border: 1px solid #c8c8d0; border-radius: 8px; padding: 8px 16px; background: #fff;
      color: #1d1d1f; cursor: pointer; }
    .settle .hint { margin: 4px 0 0; color: #555; font-size: .8rem; }
  `;

  // Static markup only: everything from the API goes in through textContent and attributes.
  const TEMPLATE = `
    <button part="button" class="buy" type="button" aria-haspopup="dialog"><slot>Buy now</slot></button>
    <dialog part="dialog" aria-labelledby="title">
      <div class="head">
        <h2 id="title">Checkout</h2>
        <button class="close" type="button" aria-label="Close">&times;</button>
      </div>
      <p class="status" id="status" role="status" aria-live="polite"></p>
      <section id="summary" aria-label="Your order" hidden>
        <table>
          <tbody id="lines"></tbody>
          <tfoot>
            <tr id="subtotal-row"><td>Subtotal</td><td class="amount" id="subtotal"></td></tr>
            <tr id="tax-row"><td id="tax-label">Tax</td><td class="amount" id="tax"></td></tr>
            <tr class="total"><td>Total</td><td class="amount" id="total"></td></tr>
          </tfoot>
        </table>
        <p class="sats" id="satoshis"></p>
      </section>
      <section class="pay" id="pay" aria-label="Pay" hidden>
        <img class="qr" id="qr" width="220" height="220" alt="">
        <a class="wallet" id="wallet">Open in wallet</a>
        <a class="alt" id="pay-uri">Pay with a BIP270 wallet (pay: link)</a>
        <p class="expiry" id="expiry"></p>
        <button type="button" class="other" id="to-stablecoin" hidden>Pay in stablecoin</button>
      </section>
      <section class="pay" id="stablecoin" aria-labelledby="stablecoin-title" hidden>
        <h3 class="subhead" id="stablecoin-title" tabindex="-1">Pay in stablecoin</h3>
        <p class="tokens" id="tokens"></p>
        <p class="worth" id="worth"></p>
        <img class="qr" id="stablecoin-qr" width="220" height="220" alt="">
        <p class="worth">Send it to this address:</p>
        <p class="address" id="address"></p>
        <button type="button" class="copy" id="copy">Copy address</button> <span class="worth" id="copied" role="status"></span>
        <p class="expiry" id="stablecoin-expiry"></p>
        <form class="settle" id="settle">
          <label for="txid">Paid already? Paste the transaction id</label>
          <input id="txid" type="text" autocomplete="off" spellcheck="false" maxlength="64" aria-describedby="txid-hint">
          <p class="hint" id="txid-hint">The id your wallet showed when it sent the transfer.</p>
          <p class="error" id="refusal" role="alert" hidden></p>
          <button type="submit" id="settle-button">Check payment</button>
        </form>
        <button type="button" class="other" id="to-bitcoin">Pay in bitcoin instead</button>
      </section>
      <section class="done" id="done" hidden>
        <p class="tick" aria-hidden="true">&#10003;</p>
        <p id="receipt"></p>
      </section>
      <p class="error" id="error" role="alert" hidden></p>
      <div class="actions">
        <button type="button" id="retry" hidden>Try again</button>
        <button type="button" class="primary" id="finish" hidden>Done</button>
      </div>
    </dialog>
  `;

  let parsed = null;
  function template() {
    if (!parsed) {
      parsed = document.createElement('template');
      parsed.innerHTML = TEMPLATE;
    }
    return parsed;
  }

  let sheet = null;
  /** One constructed stylesheet for every element (not an inline <style>: a host page's CSP may forbid those). */
  function styles(root) {
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(CSS);
      }
      root.adoptedStyleSheets = [sheet];
    } else {
      const style = document.createElement('style');
      style.textContent = CSS;
      root.appendChild(style);
    }
  }

  // Money: integers of minor units, formatted through a decimal string built from the integer (never a float).
  const currencyFormats = new Map();
  function currencyFormat(currency) {
    const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
    if (!currencyFormats.has(code)) currencyFormats.set(code, new Intl.NumberFormat(undefined, { style: 'currency', currency: code }));
    return currencyFormats.get(code);
  }
  function money(minor, currency) {
    const format = currencyFormat(currency);
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    const value = BigInt(minor);
    const text = (value < 0n ? -value : value).toString().padStart(digits + 1, '0');
    const decimal = `${value < 0n ? '-' : ''}${text.slice(0, text.length - digits)}${digits > 0 ? `.${text.slice(-digits)}` : ''}`;
    return format.format(decimal);
  }
  const satoshis = (amount) => `${new Intl.NumberFormat().format(amount)} satoshis`;

  class CheckoutError extends Error {}

  /** 128 random bits, hex (crypto.randomUUID exists in secure contexts only; a shop may be served over http). */
  function randomKey() {
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  /** A refusal of the API: its message to show, its code and details to read. */
  class ApiRefusal extends CheckoutError {
    constructor(message, code, details) {
      super(message);
      this.code = code;
      this.details = details || {};
    }
  }

  /** The Commerce API with the element's commerce key; `key` null for the public stablecoin routes. */
  async function call(method, path, key, body) {
    const headers = { accept: 'application/json' };
    if (key) headers['x-commerce-key'] = key;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      // The one retry below (the network dropped the request or its answer) gets the same checkout, not a second one.
      headers['idempotency-key'] = randomKey();
    }
    const send = () =>
      fetch(`${API_BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        mode: 'cors',
        credentials: 'omit',
        cache: 'no-store',
      });
    let response;
    try {
      response = await send().catch(() => new Promise((later) => setTimeout(later, RETRY_MS)).then(send));
    } catch {
      throw new CheckoutError('The payment service did not answer. Check your connection and try again.');
    }
    let json = null;
    try {
      json = await response.json();
    } catch {
      json = null;
    }
    if (!response.ok)
      throw new ApiRefusal(
        json?.error?.message ?? `The payment service answered ${response.status}.`,
        json?.error?.code,
        json?.error?.details,
      );
    return json;
  }

  // The stablecoin (decision 0036): token units as the token's own decimal, "617000" of 5 decimals -> "6.17 USDX".
  function tokens(payment) {
    const decimals = Number(payment.decimals) || 0;
    const digits = String(payment.token_amount || '0').padStart(decimals + 1, '0');
    const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, '');
    let fraction = decimals > 0 ? digits.slice(-decimals) : '';
    while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
    return `${new Intl.NumberFormat('en-US').format(BigInt(whole))}${fraction ? `.${fraction}` : ''} ${payment.symbol}`;
  }

  /** Settle's refusals of a pasted transaction id, in words the customer acts on (the counter's pages say the same). */
  function refusalText(error, intent) {
    const symbol = intent.payment.symbol;
    const words = {
      payment_underpaid: `That transfer sent less than ${tokens(intent.payment)} to this payment's address. Send the whole amount in one transfer.`,
      stablecoin_wrong_token: `That transfer sent another token, not ${symbol}. Send ${symbol} to pay.`,
      payment_wrong_output: `That transaction sends no ${symbol} this shop can use to this payment's address. Check the address and the transaction id.`,
      stablecoin_not_approved: `The ${symbol} cosigner did not approve that transfer, so it cannot pay. Send it from a wallet that has the cosigner approve it.`,
      payment_expired:
        'This payment request expired before the transfer arrived. Ask the shop for a new one; the shop refunds a late transfer.',
      txid_already_used: 'That transaction has already paid for something else: it cannot pay this too.',
      stablecoin_transfer_invalid: `That transfer moves ${symbol} its sender did not hold, so it carries none.`,
      not_found: 'No transaction with that id is on the chain yet. Check the id, or wait a moment and try again.',
      unavailable: 'The payment could not be checked just now. Try again in a moment.',
      chain_unavailable: 'The payment could not be checked just now. Try again in a moment.',
      chain_rejected: 'The network refused that transaction. Check it in your wallet.',
    };
    if (error.code === 'failed_precondition' && error.details?.reason === 'refund_due')
      return 'This order was already paid or closed: the transfer is kept for the shop to refund.';
    return words[error.code] || error.message;
  }

  class BuyButton extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      styles(root);
      root.appendChild(template().content.cloneNode(true));
      this._el = (id) => root.getElementById(id);
      this._button = root.querySelector('.buy');
      this._dialog = root.querySelector('dialog');
      this._checkout = null;
      this._state = 'idle';
      this._watch = null;
      this._countdown = null;
      this._callback = null;

      this._button.addEventListener('click', () => this.open());
      root.querySelector('.close').addEventListener('click', () => this.close());
      this._el('finish').addEventListener('click', () => this.close());
      this._el('retry').addEventListener('click', () => this._start());
      this._intent = null;
      this._intentTimer = null;
      this._el('to-stablecoin').addEventListener('click', () => this._payInStablecoin());
      this._el('to-bitcoin').addEventListener('click', () => this._showBitcoin());
      this._el('settle').addEventListener('submit', (event) => {
        event.preventDefault();
        this._settleWith(this._el('txid').value);
      });
      this._el('copy').addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(this._el('address').textContent);
          this._el('copied').textContent = 'Copied.';
        } catch {
          this._el('copied').textContent = 'Select the address to copy it.';
        }
      });
      // Escape (the dialog's cancel) and the close button both end here: focus goes back to the Buy button.
      this._dialog.addEventListener('close', () => this._button.focus());
    }

    /** The optional callback: a function property, or the name of a global function in the `callback` attribute. */
    get callback() {
      if (this._callback) return this._callback;
      const name = this.getAttribute('callback');
      return name && typeof window[name] === 'function' ? window[name] : null;
    }
    set callback(fn) {
      this._callback = typeof fn === 'function' ? fn : null;
    }

    disconnectedCallback() {
      this._stopWatching();
    }

    // Moved elsewhere in the page (removed, then added again): a checkout still waiting is followed again.
    connectedCallback() {
      if (this._state === 'pending' && !this._watch) {
        this._follow();
        this._tick();
        if (this._intent) this._followIntent();
      }
    }

    /** Opens the dialog: the checkout still waiting for payment if there is one, otherwise a new one. */
    open() {
      if (!this._dialog.open) this._dialog.showModal();
      if (this._state === 'idle' || this._state === 'done' || this._state === 'error') this._start();
    }

    close() {
      if (this._dialog.open) this._dialog.close();
      // Paid or expired: the next click is a new purchase. A pending payment is still followed while closed.
      if (this._state === 'done' || this._state === 'error') this._reset();
    }

    _config() {
      const merchant = (this.getAttribute('merchant') || '').trim();
      const item = (this.getAttribute('item') || '').trim();
      const key = (this.getAttribute('commerce-key') || '').trim();
      const quantity = Number(this.getAttribute('quantity') || '1');
      const modifiers = (this.getAttribute('modifiers') || '').split(/[\s,]+/).filter(Boolean);
      const missing = [!merchant && 'merchant', !item && 'item', !key && 'commerce-key'].filter(Boolean);
      if (missing.length) throw new CheckoutError(`This Buy button is missing its ${missing.join(', ')} attribute.`);
      if (!Number.isInteger(quantity) || quantity < 1) throw new CheckoutError('The quantity of this Buy button is not a whole number.');
      const line = { item_id: item, quantity };
      if (modifiers.length) line.modifier_ids = modifiers;
      return { merchant, key, lines: [line] };
    }

    _reset() {
      this._stopWatching();
      this._checkout = null;
      this._intent = null;
      this._state = 'idle';
      for (const id of ['summary', 'pay', 'stablecoin', 'done', 'error', 'retry', 'finish']) this._el(id).hidden = true;
      this._el('satoshis').hidden = false;
      this._el('status').textContent = '';
    }

    async _start() {
      this._reset();
      this._state = 'creating';
      this._dialog.setAttribute('aria-busy', 'true');
      this._el('status').textContent = 'Preparing your checkout…';
      try {
        const { merchant, key, lines } = this._config();
        const base = `/api/v1/commerce/${encodeURIComponent(merchant)}`;
        // The merchant's name titles the dialog; read beside the checkout, and not needed for it.
        call('GET', base, key).then(
          (profile) => {
            if (profile?.name) this._el('title').textContent = `Pay ${profile.name}`;
          },
          () => {},
        );
        const checkout = await call('POST', `${base}/checkout`, key, { lines });
        this._checkout = { ...checkout, key, base, merchant };
        this._state = 'pending';
        this._render(checkout);
        this._follow();
      } catch (error) {
        this._fail(error);
      } finally {
        this._dialog.removeAttribute('aria-busy');
      }
    }

    _render(checkout) {
      const currency = checkout.currency;
      const body = this._el('lines');
      body.replaceChildren(
        ...checkout.lines.map((line) => {
          const row = document.createElement('tr');
          const name = document.createElement('td');
          const options = line.modifiers.map((modifier) => modifier.name).join(', ');
          name.textContent = `${line.quantity} × ${line.name}${options ? ` (${options})` : ''}`;
          const amount = document.createElement('td');
          amount.className = 'amount';
          amount.textContent = money(line.total_minor - (checkout.prices_include_tax ? 0 : line.tax_minor), currency);
          row.append(name, amount);
          return row;
        }),
      );
      this._el('subtotal').textContent = money(checkout.subtotal_minor, currency);
      this._el('tax-label').textContent = checkout.prices_include_tax ? 'Tax included' : 'Tax';
      this._el('tax-row').hidden = checkout.tax_minor === 0;
      this._el('subtotal-row').hidden = checkout.tax_minor === 0 || checkout.prices_include_tax;
      this._el('tax').textContent = money(checkout.tax_minor, currency);
      this._el('total').textContent = money(checkout.total_minor, currency);
      this._el('satoshis').textContent = satoshis(checkout.satoshis);
      const qr = this._el('qr');
      qr.src = checkout.qr_url;
      qr.alt = `QR code to pay ${money(checkout.total_minor, currency)} (${satoshis(checkout.satoshis)}) with a wallet`;
      this._el('wallet').href = checkout.bip21_uri;
      this._el('pay-uri').href = checkout.pay_uri;
      this._el('summary').hidden = false;
      this._el('pay').hidden = false;
      // The stablecoin is a US dollar: it pays an order in dollars.
      this._el('to-stablecoin').hidden = checkout.currency !== 'USD';
      this._el('status').textContent = 'Waiting for payment: scan the code or open your wallet.';
      this._tick();
    }

    /** The checkout's stablecoin intent (opened once; asking again answers the same), shown instead of bitcoin's QR. */
    async _payInStablecoin() {
      const checkout = this._checkout;
      if (!checkout || this._state !== 'pending') return;
      const button = this._el('to-stablecoin');
      button.disabled = true;
      this._el('status').textContent = 'Preparing the stablecoin payment…';
      try {
        const answer = await call('POST', '/api/v1/stablecoin/intents', null, {
          org_handle: checkout.merchant,
          checkout: checkout.public_token,
        });
        if (checkout !== this._checkout || this._state !== 'pending') return;
        this._showIntent(answer.intent ?? answer);
        this._followIntent();
        this._el('stablecoin-title').focus();
      } catch (error) {
        this._el('status').textContent = error instanceof CheckoutError ? error.message : 'The stablecoin payment could not be prepared.';
      } finally {
        button.disabled = false;
      }
    }

    _showIntent(intent) {
      const fresh = this._intent?.id !== intent.id;
      this._intent = intent;
      const payment = intent.payment;
      const amount = tokens(payment);
      this._el('stablecoin-title').textContent = `Pay in ${payment.symbol}`;
      this._el('tokens').textContent = amount;
      this._el('worth').textContent = `${money(intent.amount_cents, 'USD')} in ${payment.symbol}, a dollar stablecoin`;
      this._el('address').textContent = payment.address;
      const qr = this._el('stablecoin-qr');
      if (fresh) {
        qr.src = `${API_BASE}/api/v1/stablecoin/intents/${encodeURIComponent(intent.id)}/qr`;
        qr.alt = `QR code of the address to send ${amount} to`;
        this._el('txid').value = '';
        this._say('');
      }
      this._el('stablecoin-expiry').textContent = `Pay by ${new Date(intent.expires_at).toLocaleTimeString()}`;
      this._el('pay').hidden = true;
      this._el('stablecoin').hidden = false;
      // Satoshis say nothing of a payment in the stablecoin.
      this._el('satoshis').hidden = true;
      if (intent.status === 'requires_payment') this._el('status').textContent = `Waiting for payment: send ${amount} to the address.`;
      // Paid, expired or cancelled: the checkout's own status says so, and ends the dialog as bitcoin's would.
      else this._readStatus();
    }

    _showBitcoin() {
      // The intent stays open: a transfer already sent still pays the order, and the stream says so.
      this._el('stablecoin').hidden = true;
      this._el('pay').hidden = false;
      this._el('satoshis').hidden = false;
      this._el('status').textContent = 'Waiting for payment: scan the code or open your wallet.';
      this._el('to-stablecoin').focus();
    }

    /** The intent, read every 2 s while it waits: its success is what the customer's pasted txid or wallet brought. */
    _followIntent() {
      clearTimeout(this._intentTimer);
      const intent = this._intent;
      const poll = async () => {
        if (intent !== this._intent || this._state !== 'pending') return;
        try {
          const answer = await call('GET', `/api/v1/stablecoin/intents/${encodeURIComponent(intent.id)}`, null);
          if (intent !== this._intent || this._state !== 'pending') return;
          this._showIntent(answer.intent ?? answer);
        } catch {
          // A failed read changes nothing: the next one may answer.
        }
        if (this._intent?.status === 'requires_payment' && this._state === 'pending') this._intentTimer = setTimeout(poll, POLL_MS);
      };
      this._intentTimer = setTimeout(poll, POLL_MS);
    }

    _say(text) {
      const refusal = this._el('refusal');
      refusal.textContent = text;
      refusal.hidden = !text;
      // The dialog may scroll on a phone: what was refused stays in view, beside the field.
      if (text && refusal.scrollIntoView) refusal.scrollIntoView({ block: 'nearest' });
    }

    /** The transaction id the customer pastes: settle verifies the transfer on the chain, or says why not. */
    async _settleWith(text) {
      const intent = this._intent;
      if (!intent) return;
      const txid = String(text).trim().toLowerCase();
      if (!/^[0-9a-f]{64}$/.test(txid)) return this._say('A transaction id is 64 letters (a to f) and digits: paste it whole.');
      this._say('');
      this._el('settle-button').disabled = true;
      try {
        const answer = await call('POST', `/api/v1/stablecoin/intents/${encodeURIComponent(intent.id)}/settle`, null, { txid });
        if (intent === this._intent) this._showIntent(answer.intent ?? answer);
      } catch (error) {
        this._say(
          error instanceof ApiRefusal ? refusalText(error, intent) : 'The payment could not be checked just now. Try again in a moment.',
        );
      } finally {
        this._el('settle-button').disabled = false;
      }
    }

    /** The time left, each second, outside the live region (a screen reader hears the status, not the clock). */
    _tick() {
      const expiresAt = Date.parse(this._checkout.expires_at);
      const show = () => {
        const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
        this._el('expiry').textContent = `Expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
        // Past its expiry the checkout's status says so; the stream may have nothing more to say.
        if (left === 0 && this._state === 'pending') this._readStatus();
      };
      show();
      clearInterval(this._countdown);
      this._countdown = setInterval(show, 1000);
    }

    /** The order's event stream, and the checkout's status polled when the stream fails or is not there. */
    _follow() {
      const checkout = this._checkout;
      const watch = { source: null, timer: null, stopped: false };
      this._watch = watch;
      const poll = async () => {
        if (watch.stopped) return;
        await this._readStatus();
        if (!watch.stopped) watch.timer = setTimeout(poll, POLL_MS);
      };
      if (typeof EventSource !== 'function') return void poll();
      const source = new EventSource(checkout.events_url);
      watch.source = source;
      source.addEventListener('order', (event) => {
        let order;
        try {
          order = JSON.parse(event.data);
          order = order.order ?? order;
        } catch {
          return;
        }
        if (!ORDER_FINAL.has(order.status)) return this._progress(order);
        // The stream ends after a final state: no poll is needed to learn what it just said.
        source.close();
        watch.source = null;
        this._readStatus(order);
      });
      source.addEventListener('error', () => {
        source.close();
        watch.source = null;
        if (!watch.stopped && watch.timer === null) poll();
      });
    }

    _progress(state) {
      if (state.paid_satoshis > 0 && state.due_satoshis > 0)
        this._el('status').textContent = `Partly paid: ${satoshis(state.due_satoshis)} still to pay.`;
    }

    /** The checkout's own status (it also brings commerce's record up to date); the stream's order if it cannot be read. */
    async _readStatus(fromStream) {
      const checkout = this._checkout;
      if (!checkout || this._state !== 'pending') return;
      let status = null;
      try {
        status = await call('GET', `${checkout.base}/checkout/${encodeURIComponent(checkout.public_token)}/status`, checkout.key);
      } catch {
        status = fromStream ? { ...fromStream, public_token: checkout.public_token } : null;
      }
      if (!status || checkout !== this._checkout || this._state !== 'pending') return;
      if (FINAL.has(status.status)) this._settle(status);
      else this._progress(status);
    }

    _settle(status) {
      const checkout = this._checkout;
      this._state = 'done';
      this._stopWatching();
      const paid = PAID.has(status.status);
      const type = paid ? 'checkout.paid' : status.status === 'expired' ? 'checkout.expired' : 'checkout.cancelled';
      this._el('pay').hidden = true;
      this._el('stablecoin').hidden = true;
      this._el('done').hidden = !paid;
      this._el('finish').hidden = false;
      // Paid through the intent: the order took no satoshis, and the intent's transfer paid it.
      const intent = paid && !(status.paid_satoshis > 0) && this._intent ? this._intent : null;
      this._el('satoshis').hidden = intent !== null;
      if (paid) {
        this._el('status').textContent = 'Paid. Thank you!';
        const received = intent ? tokens(intent.payment) : satoshis(status.paid_satoshis ?? checkout.satoshis);
        this._el('receipt').textContent =
          `Order ${checkout.order_number}: ${money(checkout.total_minor, checkout.currency)} (${received}) received.`;
      } else {
        this._el('status').textContent =
          status.status === 'expired'
            ? 'This checkout expired before it was paid. Nothing was charged.'
            : 'This checkout was cancelled by the merchant. Nothing was charged.';
        this._el('retry').hidden = false;
        this._el('retry').textContent = 'Start again';
      }
      this._el('finish').focus();
      const detail = {
        public_token: checkout.public_token,
        order_number: checkout.order_number,
        merchant: checkout.merchant_handle,
        status: status.status,
        currency: checkout.currency,
        total_minor: checkout.total_minor,
        tax_minor: checkout.tax_minor,
        satoshis: checkout.satoshis,
        paid_satoshis: status.paid_satoshis ?? 0,
        paid_at: status.paid_at ?? null,
        expires_at: checkout.expires_at,
      };
      // Paid in the stablecoin: the intent that took it (GET /api/v1/stablecoin/intents/:id reads it).
      if (intent) detail.stablecoin_payment_id = intent.id;
      const event = new CustomEvent(type, { detail, bubbles: true, composed: true });
      this.dispatchEvent(event);
      const callback = this.callback;
      if (callback) {
        try {
          callback.call(this, event);
        } catch (error) {
          // The host page's mistake must not stop the dialog; it still shows in the console.
          setTimeout(() => {
            throw error;
          });
        }
      }
    }

    _fail(error) {
      this._state = 'error';
      this._stopWatching();
      this._el('status').textContent = '';
      const message = this._el('error');
      message.textContent = error instanceof CheckoutError ? error.message : 'Something went wrong. Please try again.';
      message.hidden = false;
      this._el('retry').hidden = false;
      this._el('retry').textContent = 'Try again';
      this._el('retry').focus();
    }

    _stopWatching() {
      clearInterval(this._countdown);
      this._countdown = null;
      clearTimeout(this._intentTimer);
      this._intentTimer = null;
      if (!this._watch) return;
      this._watch.stopped = true;
      this._watch.source?.close();
      clearTimeout(this._watch.timer);
      this._watch = null;
    }
  }

  window.customElements.define(TAG, BuyButton);
})();
