// The counter screen: sign in with an API key, pick the organisation, sell from the menu or the keypad,
// create the order, show its QR while the payment arrives, then the receipt. The customer's gift and loyalty
// cards are cards.js's panel, in the cart and beside the order. An open order in US dollars may be paid in the
// dollar stablecoin instead: staff open its intent, and stablecoin-payment.js shows the customer what to send.

import { api, ApiError, listAll, orderOf, session } from './api.js';
import { cardPanel } from './cards.js';
import { addItem, addKeypadLine, changeQuantity, emptyCart, orderRequest, unitPrice } from './cart.js';
import { cartQuoter } from './cart-quote.js';
import { formatMoney, formatPercent, formatSatoshis, parseMoney, parsePercent } from './money.js';
import { watchOrder } from './order-watch.js';
import { receiptText } from './receipt.js';
import { stablecoinPayment } from './stablecoin-payment.js';
import { tokenAmountText } from './stablecoin-text.js';
import { ticketCheckIn } from './ticket-check-in.js';
import { $, element, showAlert, statusText } from './ui.js';

const state = {
  organizations: [],
  org: null,
  items: [],
  sections: [],
  category: null,
  currency: 'USD',
  cart: emptyCart(),
  order: null,
  watch: null,
  tipBasisPoints: null,
  /** pos's price of the cart as it stands (POST /api/pos/orders/quote), null while there is none. */
  quote: null,
  /** Whether the order on the screen is shown paid in the stablecoin (its intent) rather than bitcoin (its QR). */
  inStablecoin: false,
};

const usdx = stablecoinPayment($('usdx-panel'), { heading: 'h3', prefix: 'usdx' });

const views = ['signin-view', 'sell-view', 'order-view', 'receipt-view'];
function show(view, focus) {
  for (const id of views) $(id).hidden = id !== view;
  cards.place(view);
  $('session-bar').hidden = view === 'signin-view';
  (focus ? $(focus) : $('main')).focus();
}

const money = (minor) => formatMoney(minor, state.currency);

function fail(error) {
  if (error instanceof ApiError && error.status === 401) {
    session.signOut();
    show('signin-view', 'api-key');
  }
  showAlert(error instanceof Error ? error.message : String(error));
}

const cards = cardPanel({ org: () => state.org, onOrder: renderOrder, fail, onCartChange: () => requote() });
const tickets = ticketCheckIn({ org: () => state.org, $ });

// ---- Sign in and the organisation

$('signin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = $('api-key').value.trim();
  if (!key) return;
  session.signIn(key);
  $('api-key').value = '';
  // The sale shows once the organisations and the menu have loaded: until then the button says it is at work.
  const button = event.submitter;
  button.disabled = true;
  button.textContent = 'Signing in…';
  try {
    await start();
  } finally {
    button.disabled = false;
    button.textContent = 'Sign in';
  }
});

$('sign-out').addEventListener('click', () => {
  state.watch?.stop();
  leaveStablecoin();
  session.signOut();
  state.cart = emptyCart();
  cards.reset();
  tickets.reset();
  show('signin-view', 'api-key');
});

$('org-select').addEventListener('change', async () => {
  state.org = state.organizations.find((org) => org.handle === $('org-select').value) ?? null;
  sessionStorage.setItem('ctk.org', state.org?.handle ?? '');
  state.cart = emptyCart();
  cards.reset();
  tickets.reset();
  await loadMenu().catch(fail);
});

async function start() {
  showAlert('');
  if (!session.key()) return show('signin-view', 'api-key');
  try {
    state.organizations = await listAll('/api/v1/organizations');
  } catch (error) {
    return fail(error);
  }
  if (state.organizations.length === 0) {
    session.signOut();
    show('signin-view', 'api-key');
    return showAlert('This key belongs to no organisation: onboard one first (POST /api/v1/onboard).');
  }
  const remembered = sessionStorage.getItem('ctk.org');
  state.org = state.organizations.find((org) => org.handle === remembered) ?? state.organizations[0];
  $('org-select').replaceChildren(
    ...state.organizations.map((org) => element('option', { value: org.handle, selected: org === state.org }, org.name)),
  );
  // The sale shows once its menu is drawn: drawn after, above the keypad, the menu would move the keypad from under a tap.
  const failed = await loadMenu().then(
    () => undefined,
    (error) => error,
  );
  show('sell-view', 'search');
  if (failed) fail(failed);
}

// ---- The menu: sections of the saved menu, or the items by category when no menu is saved

/** The tip choices when the service answers no menu: pos's default ones (10%, 15%, 20%). */
const DEFAULT_TIP_BASIS_POINTS = [1000, 1500, 2000];

async function loadMenu() {
  const handle = encodeURIComponent(state.org.handle);
  let sections = [];
  let tips = DEFAULT_TIP_BASIS_POINTS;
  try {
    const menu = await api('GET', `/api/v1/orgs/${handle}/menu`);
    sections = (menu?.sections ?? []).filter((section) => (section.items ?? []).length > 0);
    tips = menu?.tip_basis_points ?? DEFAULT_TIP_BASIS_POINTS;
  } catch (error) {
    // A service without the menu yet (501) or none saved: the items, grouped by category, are the menu.
    if (!(error instanceof ApiError) || error.status === 401) throw error;
  }
  if (sections.length === 0) {
    // The list is newest first; the order the merchant added them in reads better as a menu.
    const items = (await listAll(`/api/v1/orgs/${handle}/items`)).reverse();
    const byCategory = new Map();
    for (const item of items) {
      const name = item.category || 'Other';
      if (!byCategory.has(name)) byCategory.set(name, []);
      byCategory.get(name).push(item);
    }
    sections = [...byCategory].map(([name, sectionItems]) => ({ name, items: sectionItems }));
  }
  for (const section of sections) section.items = section.items.filter((item) => item.available !== false);
  state.sections = sections.filter((section) => section.items.length > 0);
  state.items = state.sections.flatMap((section) => section.items);
  state.currency = state.items[0]?.currency ?? 'USD';
  state.category = null;
  renderTipChoices(tips);
  renderMenu();
  renderCart();
}

function renderMenu() {
  const tabs = [{ name: 'All' }, ...state.sections];
  $('categories').replaceChildren(
    ...tabs.map((section) => {
      const value = section.name === 'All' && !section.items ? null : section.name;
      const button = element('button', { type: 'button', class: 'tab', 'aria-pressed': String(state.category === value) }, section.name);
      button.addEventListener('click', () => {
        state.category = value;
        renderMenu();
        button.focus();
      });
      return button;
    }),
  );
  const query = $('search').value.trim().toLowerCase();
  const shown = [];
  const seen = new Set();
  for (const section of state.sections) {
    if (state.category !== null && section.name !== state.category) continue;
    for (const item of section.items) {
      if (seen.has(item.id)) continue;
      if (query && !`${item.name} ${item.description ?? ''} ${item.sku ?? ''}`.toLowerCase().includes(query)) continue;
      seen.add(item.id);
      shown.push(item);
    }
  }
  $('item-grid').replaceChildren(
    ...shown.map((item) => {
      const priceLabel =
        item.price_type === 'top_up'
          ? 'any amount'
          : item.price_type === 'minimum'
            ? `from ${money(item.price_cents)}`
            : money(item.price_cents);
      // Stock is counted only when the item tracks it (inventory null: not tracked).
      const soldOut = item.inventory === 0;
      const button = element(
        'button',
        { type: 'button', class: 'item', 'data-item-id': item.id, disabled: soldOut },
        element('span', { class: 'item-name' }, item.name),
        element('span', { class: 'item-price' }, soldOut ? 'sold out' : priceLabel),
        (item.modifiers ?? []).length ? element('span', { class: 'item-more' }, 'options') : '',
      );
      button.addEventListener('click', () => chooseItem(item));
      return button;
    }),
  );
  $('menu-empty').hidden = state.items.length > 0;
}

$('search').addEventListener('input', () => renderMenu());
// Enter in the search takes the one item it found, so a clerk can sell from the keyboard alone.
$('search').addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  const found = $('item-grid').querySelectorAll('button:not([disabled])');
  if (found.length === 1) {
    event.preventDefault();
    found[0].click();
  }
});

function chooseItem(item) {
  const needsPrice = item.price_type === 'minimum' || item.price_type === 'top_up';
  if ((item.modifiers ?? []).length === 0 && !needsPrice) {
    addItem(state.cart, item);
    return renderCart(`${item.name} added`);
  }
  openModifierDialog(item);
}

// ---- The modifiers dialog (and the chosen price of a minimum or top-up item)

let dialogItem = null;

function openModifierDialog(item) {
  dialogItem = item;
  $('modifier-title').textContent = item.name;
  $('modifier-error').textContent = '';
  const groups = new Map();
  for (const modifier of item.modifiers ?? []) {
    const group = modifier.group || '';
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(modifier);
  }
  const fields = [];
  for (const [group, modifiers] of groups) {
    // Choices of one group exclude each other (radios); modifiers without a group combine (checkboxes).
    const type = group ? 'radio' : 'checkbox';
    const name = `modifier-${group || 'extras'}`;
    // A group (a size) is one choice the merchant asks for, so it offers no "None": the free choice is the
    // usual one and starts chosen, else the first. Pos has no optional group, so every group is one of these.
    const preselected = group ? (modifiers.find((modifier) => modifier.price_cents === 0) ?? modifiers[0]) : undefined;
    fields.push(
      element(
        'fieldset',
        { class: 'choices stacked' },
        element('legend', {}, group || 'Extras'),
        ...modifiers.map((modifier) =>
          element(
            'label',
            {},
            element('input', { type, name, value: modifier.id, checked: modifier === preselected }),
            ` ${modifier.name}`,
            modifier.price_cents ? element('span', { class: 'hint' }, ` +${money(modifier.price_cents)}`) : '',
          ),
        ),
      ),
    );
  }
  if (item.price_type === 'minimum' || item.price_type === 'top_up') {
    const hint = item.price_type === 'minimum' ? `At least ${money(item.price_cents)}` : `Suggested ${money(item.price_cents)}`;
    fields.push(
      element('label', { for: 'chosen-price' }, `Price (${hint})`),
      element('input', { id: 'chosen-price', type: 'text', inputmode: 'decimal', autocomplete: 'off', value: '' }),
    );
  }
  $('modifier-fields').replaceChildren(...fields);
  $('modifier-dialog').showModal();
}

$('modifier-form').addEventListener('submit', (event) => {
  if (event.submitter?.value !== 'add' || !dialogItem) return;
  const item = dialogItem;
  const checked = [...$('modifier-fields').querySelectorAll('input:checked')].map((input) => input.value).filter(Boolean);
  const modifiers = (item.modifiers ?? []).filter((modifier) => checked.includes(modifier.id));
  let chosen = null;
  if (item.price_type === 'minimum' || item.price_type === 'top_up') {
    chosen = parseMoney($('chosen-price').value, state.currency);
    const floor = item.price_type === 'minimum' ? item.price_cents : 1;
    if (chosen === null || chosen < floor) {
      event.preventDefault();
      $('modifier-error').textContent = `Enter a price of at least ${money(floor)}.`;
      return $('chosen-price').focus();
    }
  }
  addItem(state.cart, item, modifiers, chosen);
  renderCart(`${item.name} added`);
});

// Closing the dialog returns focus to the item's button (the browser does it), ready for another one.
$('modifier-dialog').addEventListener('close', () => {
  dialogItem = null;
});

// ---- The keypad

$('keypad-form').addEventListener('click', (event) => {
  const key = event.target.closest('button[data-key]')?.dataset.key;
  if (!key) return;
  const input = $('keypad-amount');
  input.value = key === 'back' ? input.value.slice(0, -1) : (input.value + key).slice(0, 15);
});

$('keypad-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const amount = parseMoney($('keypad-amount').value, state.currency);
  if (amount === null || amount <= 0) return showAlert(`Enter an amount such as ${money(450)}.`);
  showAlert('');
  addKeypadLine(state.cart, $('keypad-name').value.trim(), amount);
  $('keypad-amount').value = '';
  $('keypad-name').value = '';
  renderCart('Amount added');
});

// ---- The cart, discount and tip

function renderCart(announce) {
  const { lines } = state.cart;
  $('cart-lines').replaceChildren(
    ...lines.map((line) => {
      const modifiers = line.modifiers.map((modifier) => modifier.name).join(', ');
      const minus = element('button', { type: 'button', class: 'qty minus', 'aria-label': `One less ${line.name}` }, '−');
      const plus = element('button', { type: 'button', class: 'qty plus', 'aria-label': `One more ${line.name}` }, '+');
      const step = (delta, which) => {
        changeQuantity(state.cart, line.key, delta);
        renderCart(line.quantity > 0 ? `${line.name}: ${line.quantity}` : `${line.name} removed`);
        // The buttons were drawn again: focus goes back to the one pressed, or to the search when the line left.
        const again = $('cart-lines').querySelector(`[data-line="${CSS.escape(line.key)}"] .${which}`);
        (again ?? $('search')).focus();
      };
      minus.addEventListener('click', () => step(-1, 'minus'));
      plus.addEventListener('click', () => step(1, 'plus'));
      return element(
        'li',
        { class: 'cart-line', 'data-line': line.key },
        element('span', { class: 'line-name' }, line.name, modifiers ? element('small', {}, modifiers) : ''),
        element(
          'span',
          { class: 'line-qty' },
          minus,
          element('output', { 'aria-label': `Quantity of ${line.name}` }, String(line.quantity)),
          plus,
        ),
        element('span', { class: 'line-amount' }, money(unitPrice(line) * line.quantity)),
      );
    }),
  );
  $('cart-empty').hidden = lines.length > 0;
  readDiscountAndTip();
  $('create-order').disabled = lines.length === 0;
  if (announce) $('cart-announce').textContent = announce;
  requote();
}

// ---- The cart's price: pos's quote, asked as the cart changes (the last answer wins)

const quoter = cartQuoter({
  send: (body) => api('POST', '/api/pos/orders/quote', { body }),
  onPending: () => {
    $('cart-totals').setAttribute('aria-busy', 'true');
    $('cart-quote-status').textContent = 'Pricing…';
  },
  onQuote: (quote) => {
    state.quote = quote;
    renderTotals();
  },
  onError: (error) => {
    if (error instanceof ApiError && error.status === 401) return fail(error);
    state.quote = null;
    renderTotals(error instanceof Error ? error.message : String(error));
  },
});

/** Asks pos for the cart's price, the loyalty card and its reward included; an empty cart has none. */
function requote() {
  if (state.order) return; // the order on the screen has its own figures; the cart is priced again at the next sale
  if (!state.org || state.cart.lines.length === 0) {
    quoter.clear();
    state.quote = null;
    return renderTotals();
  }
  quoter.request({ ...orderRequest(state.cart, state.org.handle), ...cards.orderFields() });
}

/** The quote's figures as pos priced them; the page adds nothing up but the count of items. */
function renderTotals(problem = '') {
  const quote = state.quote;
  const shown = (minor) => (quote ? money(minor) : '—');
  $('cart-totals').setAttribute('aria-busy', 'false');
  $('sum-subtotal').textContent = shown(quote?.subtotal_minor);
  $('sum-discount').textContent = quote?.discount_minor ? money(-quote.discount_minor) : '—';
  const reward = Boolean(quote?.reward_minor);
  $('sum-reward-label').hidden = !reward;
  $('sum-reward').hidden = !reward;
  $('sum-reward-label').textContent = reward ? `Reward: ${quote.reward}` : 'Reward';
  $('sum-reward').textContent = reward ? money(-quote.reward_minor) : '';
  // Before tax: the goods after discount, net of tax; never the tip.
  $('sum-before-tax').textContent = shown(quote && quote.total_minor - quote.tax_minor - quote.tip_minor);
  $('sum-tax-label').textContent = quote?.prices_include_tax ? 'Tax included' : 'Tax';
  $('sum-tax').textContent = shown(quote?.tax_minor);
  $('sum-tip-label').textContent = state.cart.tip?.basisPoints ? `Tip (${formatPercent(state.cart.tip.basisPoints)})` : 'Tip';
  $('sum-tip').textContent = quote?.tip_minor ? money(quote.tip_minor) : '—';
  $('sum-total').textContent = shown(quote?.total_minor);
  $('cart-quote-status').textContent = problem || (quote ? '' : state.cart.lines.length ? '' : 'Add items to see the total.');
  const count = state.cart.lines.reduce((sum, line) => sum + line.quantity, 0);
  $('to-cart').textContent = quote ? `Cart: ${count} · ${money(quote.total_minor)}` : `Cart: ${count}`;
  $('to-cart').hidden = count === 0;
}

function readDiscountAndTip() {
  const kind = $('discount-kind').value;
  $('discount-value').disabled = kind === 'none';
  const value = $('discount-value').value;
  state.cart.discount = null;
  if (kind === 'percent' && parsePercent(value)) state.cart.discount = { basisPoints: parsePercent(value) };
  if (kind === 'amount' && parseMoney(value, state.currency)) state.cart.discount = { minor: parseMoney(value, state.currency) };
  $('discount-value').placeholder = kind === 'percent' ? 'e.g. 10 (%)' : kind === 'amount' ? `e.g. ${money(100)}` : '';

  const tip = document.querySelector('input[name="tip"]:checked')?.value ?? 'none';
  $('tip-custom').hidden = tip !== 'custom';
  state.cart.tip = null;
  state.tipBasisPoints = null;
  if (/^\d+$/.test(tip)) {
    state.cart.tip = { basisPoints: Number(tip) };
    state.tipBasisPoints = Number(tip);
  }
  if (tip === 'custom' && parseMoney($('tip-custom').value, state.currency))
    state.cart.tip = { minor: parseMoney($('tip-custom').value, state.currency) };
  state.cart.note = $('note').value;
}

/**
 * The merchant's tip choices as radio buttons between "None" and "Custom", labelled from basis points in
 * integers (1250 -> "12.5%"). The choice made stays checked if the organisation still offers it, else "None".
 */
function renderTipChoices(tips) {
  const choices = $('tip-choices');
  const chosen = choices.querySelector('input[name="tip"]:checked')?.value ?? 'none';
  for (const preset of choices.querySelectorAll('[data-tip-preset]')) preset.remove();
  const custom = choices.querySelector('input[value="custom"]').closest('label');
  for (const basisPoints of tips.filter((tip) => Number.isSafeInteger(tip) && tip > 0)) {
    const radio = element('input', { type: 'radio', name: 'tip', value: String(basisPoints) });
    custom.before(element('label', { 'data-tip-preset': '' }, radio, ` ${formatPercent(basisPoints)}`));
  }
  const again = choices.querySelector(`input[name="tip"][value="${CSS.escape(chosen)}"]`);
  (again ?? choices.querySelector('input[value="none"]')).checked = true;
}

for (const id of ['discount-kind', 'discount-value', 'tip-custom', 'note']) $(id).addEventListener('input', () => renderCart());
$('tip-choices').addEventListener('change', () => {
  renderCart();
  if (!$('tip-custom').hidden) $('tip-custom').focus();
});

$('clear-cart').addEventListener('click', () => {
  state.cart = emptyCart();
  $('discount-kind').value = 'none';
  $('discount-value').value = '';
  document.querySelector('input[name="tip"][value="none"]').checked = true;
  $('tip-custom').value = '';
  $('note').value = '';
  // The cart is the next customer's: the cards found for this one go too.
  cards.reset();
  renderCart();
  $('search').focus();
});

// ---- The order: create, QR, live status, confirm, cancel

$('create-order').addEventListener('click', async () => {
  readDiscountAndTip();
  if ($('discount-kind').value !== 'none' && !state.cart.discount)
    return showAlert('Enter the discount as a percent (up to 100) or an amount, or choose None.');
  const tipChoice = document.querySelector('input[name="tip"]:checked')?.value;
  if (tipChoice === 'custom' && !state.cart.tip) return showAlert('Enter the tip as an amount, or choose None.');
  $('create-order').disabled = true;
  try {
    const body = { ...orderRequest(state.cart, state.org.handle), ...cards.orderFields() };
    const order = orderOf(await api('POST', '/api/pos/orders', { body }));
    showAlert('');
    openOrder(order);
  } catch (error) {
    fail(error);
  } finally {
    $('create-order').disabled = state.cart.lines.length === 0;
  }
});

function openOrder(order) {
  state.order = order;
  state.currency = order.currency || state.currency;
  const number = encodeURIComponent(order.order_number);
  $('order-title').textContent = `Order ${order.order_number}`;
  $('order-qr').removeAttribute('src');
  delete $('order-qr').dataset.due;
  $('order-customer-link').href = `/pay/${number}`;
  $('order-pay-uri').textContent = order.pay_uri || order.bip21_uri || '';
  $('confirm-txid').value = '';
  leaveStablecoin();
  renderOrder(order);
  show('order-view', 'order-title');
  state.watch?.stop();
  state.watch = watchOrder(order.order_number, { onOrder: renderOrder, onError: () => {} });
}

function renderOrder(order) {
  // An answer about an order the counter has moved on from (New sale came first) changes nothing on the screen.
  if (state.order?.order_number !== order.order_number) return;
  state.order = order;
  // The headline is what the customer still pays: after a gift card paid part, the rest, not the total.
  const partPaid = order.status === 'open' && order.card_paid_minor > 0;
  $('order-total').textContent = partPaid ? `${money(order.total_minor - order.card_paid_minor)} still due` : money(order.total_minor);
  const due = order.status === 'open' && order.due_satoshis < order.satoshis ? ` (still due ${formatSatoshis(order.due_satoshis)})` : '';
  $('order-satoshis').textContent = `${formatSatoshis(order.satoshis)}${due}`;
  // A gift card paid part or all: what it paid, and what is still due (the QR asks for that).
  const byCard = order.card_paid_minor > 0;
  // Satoshis say nothing of an order paid, or being paid, in the stablecoin.
  $('order-satoshis').hidden = (byCard && order.satoshis === 0) || state.inStablecoin || order.paid_elsewhere_by === 'stablecoin';
  const rest = byCard && order.status === 'open' ? `; still due ${formatSatoshis(order.due_satoshis)}, with the QR` : '';
  $('order-card-paid').textContent = byCard ? `Paid by gift card: ${money(order.card_paid_minor)}${rest}` : '';
  $('order-card-paid').hidden = !byCard;
  $('order-status').textContent = statusText(order);
  $('order-status').dataset.status = order.status;
  $('order-expiry').textContent =
    order.status === 'open' && order.expires_at ? `Expires at ${new Date(order.expires_at).toLocaleTimeString()}` : '';
  const open = order.status === 'open';
  const settled = order.status === 'paid' || order.status === 'confirmed' || order.status === 'paid_elsewhere';
  const inBitcoin = open && !state.inStablecoin;
  $('confirm-form').hidden = !inBitcoin;
  $('order-pay-link').hidden = !inBitcoin;
  $('cancel-order').hidden = !open;
  $('order-qr').closest('figure').hidden = !inBitcoin;
  // The stablecoin pays a whole order in US dollars: not one part paid already (in bitcoin or by gift card).
  const stablecoinCan = open && order.currency === 'USD' && !(order.paid_satoshis > 0) && !(order.card_paid_minor > 0);
  $('pay-switch').hidden = !stablecoinCan;
  $('pay-usdx').hidden = state.inStablecoin;
  $('pay-bitcoin').hidden = !state.inStablecoin;
  $('show-receipt').hidden = !settled;
  $('new-sale-from-order').hidden = open;
  // Without a receipt to show (cancelled, expired), the next sale is the thing to do.
  $('new-sale-from-order').classList.toggle('primary', !open && !settled);
  if (settled && document.activeElement?.closest('#order-view form, #cancel-order')) $('show-receipt').focus();
  if (inBitcoin) showQr(order);
  // Paid in the stablecoin: the intent says so too, with its transfer, without waiting for its next poll.
  if (order.paid_elsewhere_by === 'stablecoin' && usdx.intent()?.status === 'requires_payment') usdx.refresh();
  cards.orderChanged(order);
}

/**
 * The QR asks for what is due, which a gift card's use changes: the image is fetched again when it does
 * (the same URL again would show the image already loaded) and shown as a data: URL.
 */
async function showQr(order) {
  const image = $('order-qr');
  const due = `${order.order_number}:${order.due_satoshis}`;
  if (image.dataset.due === due) return;
  image.dataset.due = due;
  try {
    const response = await fetch(`/api/pos/orders/${encodeURIComponent(order.order_number)}/qr?format=svg`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`The QR code could not be loaded (${response.status}): reload the page.`);
    const svg = await response.text();
    if (image.dataset.due === due) image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  } catch (error) {
    showAlert(error instanceof Error ? error.message : String(error));
  }
}

// ---- The order paid in the stablecoin: its intent, opened by staff (only staff may open one for an order)

$('pay-usdx').addEventListener('click', async () => {
  const order = state.order;
  $('pay-usdx').disabled = true;
  try {
    // One intent per order: asking again answers the open one, with the same address.
    const intent = await api('POST', '/api/v1/stablecoin/intents', {
      body: { org_handle: state.org.handle, order_number: order.order_number },
    });
    if (state.order?.order_number !== order.order_number) return;
    showAlert('');
    state.inStablecoin = true;
    $('usdx-panel').hidden = false;
    usdx.show(intent.intent ?? intent);
    // The customer page shows the same intent: its id travels in the fragment, never sent to a server.
    $('order-customer-link').href = `/pay/${encodeURIComponent(order.order_number)}#${encodeURIComponent(usdx.intent().id)}`;
    renderOrder(state.order);
    $('usdx-title').focus();
  } catch (error) {
    fail(error);
  } finally {
    $('pay-usdx').disabled = false;
  }
});

$('pay-bitcoin').addEventListener('click', () => {
  // The intent stays open: a transfer the customer already sent still pays the order.
  state.inStablecoin = false;
  $('usdx-panel').hidden = true;
  renderOrder(state.order);
  $('pay-usdx').focus();
});

/** The next order starts in bitcoin; the last one's intent is no longer followed here. */
function leaveStablecoin() {
  usdx.stop();
  state.inStablecoin = false;
  $('usdx-panel').hidden = true;
}

$('confirm-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const txid = $('confirm-txid').value.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(txid)) return showAlert('A transaction id is 64 hexadecimal characters.');
  try {
    const order = orderOf(
      await api('POST', `/api/pos/orders/${encodeURIComponent(state.order.order_number)}/confirm`, {
        body: { org_handle: state.org.handle, txid },
      }),
    );
    showAlert('');
    renderOrder(order);
  } catch (error) {
    fail(error);
  }
});

$('cancel-order').addEventListener('click', async () => {
  if (!confirm(`Cancel order ${state.order.order_number}? The customer can no longer pay it.`)) return;
  try {
    const order = orderOf(
      await api('POST', `/api/pos/orders/${encodeURIComponent(state.order.order_number)}/cancel`, {
        body: { org_handle: state.org.handle },
      }),
    );
    showAlert('');
    state.watch?.stop();
    renderOrder(order);
  } catch (error) {
    fail(error);
  }
});

// ---- The receipt

let receiptUrl = null;

$('show-receipt').addEventListener('click', async () => {
  if (state.order.paid_elsewhere_by === 'stablecoin' && usdx.intent()?.status === 'requires_payment') await usdx.refresh();
  const intent = usdx.intent();
  const paidInStablecoin = state.order.paid_elsewhere_by === 'stablecoin' && intent?.order_number === state.order.order_number;
  const text = receiptText(state.order, {
    merchantName: state.org?.name ?? '',
    merchantPaymail: state.org?.paymail ?? null,
    tipBasisPoints: state.tipBasisPoints,
    stablecoin: paidInStablecoin
      ? {
          symbol: intent.payment.symbol,
          amount: tokenAmountText(intent.payment),
          txid: intent.transfers.find((transfer) => transfer.outcome === 'accepted')?.txid ?? '',
        }
      : null,
  });
  $('receipt-text').textContent = text;
  if (receiptUrl) URL.revokeObjectURL(receiptUrl);
  receiptUrl = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  $('download-receipt').href = receiptUrl;
  $('download-receipt').download = `receipt-${state.order.order_number}.txt`;
  $('receipt-note').textContent = '';
  show('receipt-view', 'receipt-title');
});

$('print-receipt').addEventListener('click', () => window.print());

$('copy-receipt').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText($('receipt-text').textContent);
    $('receipt-note').textContent = 'Receipt text copied.';
  } catch {
    $('receipt-note').textContent = 'Copying is not allowed here: select the text, or download it.';
  }
});

function newSale() {
  state.watch?.stop();
  leaveStablecoin();
  state.order = null;
  cards.reset();
  $('clear-cart').click();
  show('sell-view', 'search');
}
$('new-sale').addEventListener('click', newSale);
$('new-sale-from-order').addEventListener('click', newSale);

start();
