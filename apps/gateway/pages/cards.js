// The customer's cards at the counter (docs/decisions/0017-customer-cards.md, "The counter screen"): staff
// scan or type a card identifier or the customer's address; the panel shows gift card balances and loyalty
// stamps, pays an open order with a gift card (all or part), attaches a loyalty card to the order being
// built so that its payment stamps it, and redeems a reward on that order (a discount pos prices, decision
// 0023). An address shows what it holds at this shop at once (docs/decisions/0024-proof-holds-and-privacy.md).
// Spending needs the identifier: a card found by the address alone is shown, and its identifier is asked for.

import { api as callApi, ApiError } from './api.js';
import { cardErrorText, prepaidStatusText, readCardInput, stampsText } from './card-text.js';
import { formatMoney, formatSatoshis, parseMoney } from './money.js';
import { $, element } from './ui.js';

const SLOTS = { 'sell-view': 'sell-card-slot', 'order-view': 'order-card-slot' };
const SETTLED = new Set(['paid', 'confirmed']);

/**
 * The panel of the counter screen. `org()` is the organisation signed in to; `onOrder(order)` hears the
 * order a gift card changed; `fail(error)` handles what the panel cannot (a key no longer valid);
 * `onCartChange()` hears that what the order being built takes from the panel changed (a reward), so the
 * cart is priced again.
 */
export function cardPanel({ org, onOrder, fail, onCartChange = () => {} }) {
  /** @type {Map<string, { kind: 'prepaid' | 'loyalty', card: any, identifier: string | null, note: string }>} */
  const found = new Map();
  /** The address scanned: its POS card here (`card` null when the shop has none yet) and what it holds here (`held`). */
  let customer = null;
  let order = null;
  /** The loyalty card the order being built (then the order) stamps. */
  let attached = null;
  /** The loyalty card whose reward the order being built redeems (it is the attached card too). */
  let redeeming = null;
  let stampRead = null;
  /**
   * One customer at a time: reset() starts another epoch, and an answer asked for in an earlier one (a
   * balance read again after a cancel, a look-up still on its way) is dropped rather than shown to the next customer.
   */
  let epoch = 0;
  const api = async (...args) => {
    const asked = epoch;
    const answer = await callApi(...args);
    if (asked !== epoch) throw new StaleAnswer();
    return answer;
  };

  const say = (text) => ($('card-status').textContent = text);
  const complain = (text) => {
    $('card-error').textContent = text;
    $('card-error').hidden = !text;
  };
  const refused = (error, currency = 'USD') => {
    if (error instanceof StaleAnswer) return;
    if (error instanceof ApiError && error.status === 401) return fail(error);
    complain(cardErrorText(error, currency));
  };
  const handle = () => org()?.handle ?? '';

  function remember(kind, card, identifier = null) {
    const entry = found.get(card.id) ?? { kind, card, identifier: null, note: '' };
    entry.card = { ...entry.card, ...card };
    if (identifier) entry.identifier = identifier;
    found.set(card.id, entry);
    return entry;
  }

  // ---- Look up what was scanned or typed

  $('card-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const read = readCardInput($('card-input').value);
    complain('');
    if (read.kind === 'unknown') {
      complain("Scan or type a card identifier (XXXX-XXXX-XXXX-XXXX) or the customer's wallet address.");
      return $('card-input').focus();
    }
    $('card-look-up').disabled = true;
    try {
      if (read.kind === 'identifier') await lookUpIdentifier(read.identifier);
      else await lookUpAddress(read.kind === 'address' ? { address: read.address } : { public_key: read.publicKey });
      $('card-input').value = '';
    } catch (error) {
      refused(error);
    } finally {
      $('card-look-up').disabled = false;
      render();
    }
  });

  async function lookUpIdentifier(identifier) {
    const lookUp = (kind) =>
      api('GET', `/api/pos/${kind}/lookup/${encodeURIComponent(identifier)}`, { auth: false }).catch((error) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      });
    const [prepaid, loyalty] = await Promise.all([lookUp('prepaid-cards'), lookUp('loyalty-cards')]);
    const card = prepaid ?? loyalty;
    if (!card) return complain('No gift or loyalty card has that identifier: check it, or scan it again.');
    if (card.merchant_handle !== handle()) return complain(`That card is ${card.merchant_handle}'s: it is not taken here.`);
    const entry = remember(prepaid ? 'prepaid' : 'loyalty', card, identifier);
    say(`${title(entry)} found.`);
  }

  // What the address holds at this shop, at once, whether or not staff made its POS card (decision 0024):
  // the shop's staff read it; a stranger reading the address sees no balance or stamp.
  async function lookUpAddress(holder) {
    const key = holder.address ?? holder.public_key;
    const answer = await api('GET', `/api/pos/shops/${encodeURIComponent(handle())}/cards/address/${encodeURIComponent(key)}`);
    showCustomer({ holder, card: answer.pos_card, held: answer });
  }

  function showCustomer(next) {
    customer = next;
    for (const held of next.held.prepaid_cards) remember('prepaid', held);
    for (const held of next.held.loyalty_cards) remember('loyalty', held);
    say(`Customer ${short(next.held.address)}: ${heldText(next.held)}.`);
  }

  async function makeCustomerCard() {
    complain('');
    try {
      const card = await api('POST', '/api/pos/cards', { body: { org_handle: handle(), holder: customer.holder } });
      showCustomer({ holder: customer.holder, card, held: card });
    } catch (error) {
      refused(error);
    }
    render();
  }

  // ---- Gift cards: pay the open order with one

  async function payWith(entry, form) {
    const { card } = entry;
    const money = (minor) => formatMoney(minor, card.currency);
    const text = form.elements.amount.value.trim();
    const amount = text ? parseMoney(text, card.currency) : null;
    if (text && !amount) {
      complain(`Enter an amount such as ${money(500)}, or leave it empty to take what is due.`);
      return form.elements.amount.focus();
    }
    complain('');
    form.elements.pay.disabled = true;
    const body = {
      org_handle: handle(),
      identifier: entry.identifier,
      order_number: order.order_number,
      ...(amount ? { amount_minor: amount } : {}),
    };
    // One key for one intended use: pressing Pay again after the connection failed retries it (drawn once).
    entry.use ??= crypto.randomUUID();
    try {
      const answer = await api('POST', `/api/pos/prepaid-cards/${encodeURIComponent(card.id)}/use`, {
        body,
        idempotencyKey: `${entry.use}:${order.order_number}:${amount ?? 'due'}`,
      });
      entry.use = undefined;
      remember('prepaid', answer.card);
      entry.note = `The card paid ${money(-answer.activity.amount_minor)}; its balance is now ${money(answer.card.balance_minor)}.`;
      const rest =
        answer.order.status === 'open'
          ? `Still due: ${formatSatoshis(answer.order.due_satoshis)}, with the QR.`
          : `Order ${answer.order.order_number} is paid.`;
      say(`${entry.note} ${rest}`);
      onOrder(answer.order);
    } catch (error) {
      // Refused (4xx): nothing was drawn, so the next press is a new use. No answer or a 5xx: the same use.
      if (!(error instanceof ApiError) || (error.status >= 400 && error.status < 500)) entry.use = undefined;
      if (error instanceof ApiError && error.details?.balance_minor !== undefined)
        entry.card.balance_minor = Number(error.details.balance_minor);
      refused(error, card.currency);
      form.elements.pay.disabled = false;
    }
    render(entry);
  }

  async function rereadGiftCards() {
    try {
      for (const entry of found.values()) {
        if (entry.kind === 'prepaid')
          remember('prepaid', await api('GET', `/api/pos/prepaid-cards/${encodeURIComponent(entry.card.id)}`, { auth: false }));
      }
    } catch (error) {
      refused(error);
    }
    render();
  }

  // ---- Loyalty cards: attach to the order, read the stamp back, redeem

  async function readStamp(number) {
    const entry = found.get(attached);
    if (!entry) return;
    const before = entry.card.stamps;
    try {
      const card = await api('GET', `/api/pos/loyalty-cards/${encodeURIComponent(entry.card.id)}`, { auth: false });
      remember('loyalty', card);
      entry.note = card.stamps > before ? `Order ${number} stamped the card.` : `Order ${number} earned no stamp.`;
      say(`${entry.note} ${stampsText(card)}.`);
    } catch (error) {
      refused(error);
    }
    render(entry);
  }

  async function stamp(entry, button) {
    complain('');
    button.disabled = true;
    try {
      const answer = await api('POST', `/api/pos/loyalty-cards/${encodeURIComponent(entry.card.id)}/stamp`, {
        body: { org_handle: handle(), order_number: order.order_number },
      });
      remember('loyalty', answer.card);
      attached = entry.card.id;
      stampRead = order.order_number;
      entry.note = `Order ${order.order_number} stamped the card.`;
      say(`${entry.note} ${stampsText(answer.card)}.`);
    } catch (error) {
      refused(error);
    }
    render(entry);
  }

  /**
   * The reward goes on the order being built: the card is attached and the order is created with its
   * identifier, so pos spends the stamps with the order and takes the reward off its price (the cart shows
   * the quote). Pressed again, the reward comes off the order.
   */
  function redeemOnOrder(entry) {
    complain('');
    redeeming = redeeming === entry.card.id ? null : entry.card.id;
    if (redeeming) attached = entry.card.id;
    entry.note = redeeming ? `Reward on this order: ${entry.card.reward}.` : '';
    say(redeeming ? `${entry.note} The total includes it.` : `${title(entry)}: the reward is off the order.`);
    render();
    $(`card-${entry.card.id}`)?.parentElement.querySelector('.redeem')?.focus();
  }

  /** The order was created with the reward: the card's stamps as pos left them. */
  async function readRedeemed(entry, number) {
    try {
      remember('loyalty', await api('GET', `/api/pos/loyalty-cards/${encodeURIComponent(entry.card.id)}`, { auth: false }));
      entry.note = `Reward redeemed on order ${number}: ${entry.card.reward}.`;
      say(`${entry.note} ${stampsText(entry.card)}.`);
    } catch (error) {
      refused(error);
    }
    render();
  }

  // ---- Drawing

  function render(focusOn) {
    $('card-customer').replaceChildren(...customerLines());
    const entries = [...found.values()].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'prepaid' ? -1 : 1));
    $('card-list').replaceChildren(...entries.map((entry) => (entry.kind === 'prepaid' ? giftCard(entry) : loyaltyCard(entry))));
    if (focusOn) $(`card-${focusOn.card.id}`)?.focus();
    // What the order takes from the panel may have changed (a card attached or not, a reward): price it again.
    onCartChange();
  }

  function customerLines() {
    if (!customer) return [];
    const held = element('p', {}, `Customer ${short(customer.held.address)}: ${heldText(customer.held)}.`);
    if (customer.card) return [held];
    // An extra: the cards it holds are shown without it; the POS card keeps the customer for the shop's list.
    const make = element('button', { type: 'button' }, 'Make a customer card');
    make.addEventListener('click', makeCustomerCard);
    return [
      held,
      element(
        'div',
        { class: 'actions start' },
        make,
        element('span', { class: 'hint' }, "Optional: lists them among the shop's customers."),
      ),
    ];
  }

  function cardItem(entry, ...children) {
    return element(
      'li',
      { class: 'card-item' },
      element('h3', { id: `card-${entry.card.id}`, tabindex: '-1' }, title(entry)),
      ...children,
      entry.note ? element('p', { class: 'card-note' }, entry.note) : '',
    );
  }

  function giftCard(entry) {
    const { card } = entry;
    const figure = element('p', { class: 'card-figure' }, `Balance ${formatMoney(card.balance_minor, card.currency)}`);
    const state = element('p', { class: 'hint' }, prepaidStatusText(card));
    return cardItem(entry, figure, state, giftAction(entry));
  }

  function giftAction(entry) {
    const { card } = entry;
    if (card.status !== 'active') return '';
    if (!entry.identifier) return element('p', { class: 'hint' }, 'To spend it, scan or type its identifier above.');
    if (!order) return element('p', { class: 'hint' }, 'Create the order, then pay with the card.');
    if (order.status !== 'open') return '';
    if (order.currency !== card.currency)
      return element('p', { class: 'hint' }, `The card is in ${card.currency}, the order in ${order.currency}.`);
    const id = `amount-${card.id}`;
    const form = element(
      'form',
      { class: 'card-pay' },
      element('label', { for: id }, 'Amount from the card'),
      element('input', { id, name: 'amount', type: 'text', inputmode: 'decimal', autocomplete: 'off', 'aria-describedby': `${id}-hint` }),
      element('p', { id: `${id}-hint`, class: 'hint' }, 'Empty: as much as the order still needs, up to the balance.'),
      element('button', { type: 'submit', name: 'pay', class: 'primary' }, 'Pay with gift card'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      payWith(entry, form);
    });
    return form;
  }

  function loyaltyCard(entry) {
    const figure = element('p', { class: 'card-figure' }, stampsText(entry.card));
    return cardItem(entry, figure, attachAction(entry), redeemAction(entry));
  }

  function attachAction(entry) {
    const mine = attached === entry.card.id;
    if (order && SETTLED.has(order.status)) {
      if (attached) return '';
      // Not attached when the order was made: staff stamp the paid order with it.
      const button = element('button', { type: 'button' }, `Stamp order ${order.order_number}`);
      button.addEventListener('click', () => stamp(entry, button));
      return element('div', { class: 'actions start' }, button);
    }
    if (order) {
      if (order.status !== 'open') return '';
      return element('p', { class: 'hint' }, mine ? 'Attached: the order stamps it when paid.' : 'Stamp it once the order is paid.');
    }
    // Pressed, the button says so in words and looks pressed; pressed again, the card is let go.
    const button = element(
      'button',
      { type: 'button', class: mine ? 'attach attached' : 'attach', 'aria-pressed': String(mine) },
      mine ? 'Attached to the order' : 'Attach to the order',
    );
    button.addEventListener('click', () => {
      attached = mine ? null : entry.card.id;
      say(attached ? `${title(entry)} attached: the order stamps it when paid.` : `${title(entry)} no longer attached.`);
      render();
      $(`card-${entry.card.id}`)?.parentElement.querySelector('[aria-pressed]')?.focus();
    });
    return element('div', { class: 'actions start' }, button, mine ? element('span', { class: 'hint' }, 'Press again to detach') : '');
  }

  function redeemAction(entry) {
    if (order) return '';
    const mine = redeeming === entry.card.id;
    if (entry.card.rewards_available < 1 && !mine) return '';
    if (!entry.identifier) return element('p', { class: 'hint' }, 'To redeem the reward, scan or type its identifier above.');
    const button = element(
      'button',
      { type: 'button', class: mine ? 'redeem' : 'redeem primary', 'aria-pressed': String(mine) },
      mine ? 'Take the reward off the order' : 'Redeem reward on this order',
    );
    button.addEventListener('click', () => redeemOnOrder(entry));
    return element('div', { class: 'actions start' }, button);
  }

  return {
    /** Puts the panel in the view shown (the cart or the order), hidden elsewhere. */
    place(view) {
      const slot = SLOTS[view];
      $('card-panel').hidden = !slot;
      if (slot) $(slot).append($('card-panel'));
    },
    /** What the order being created takes from the panel: the loyalty card it stamps. */
    orderFields: () => {
      if (!attached) return {};
      const identifier = redeeming === attached ? found.get(attached)?.identifier : null;
      return { loyalty_card_id: attached, ...(identifier ? { redeem_reward_identifier: identifier } : {}) };
    },
    /** The order on the screen changed; paid, the attached card's stamps are read back once. */
    orderChanged(next) {
      // Drawn again only when what the panel offers changes: an amount being typed stays.
      const changed = !order || ['order_number', 'status', 'due_satoshis', 'card_paid_minor'].some((field) => order[field] !== next[field]);
      const created = !order || order.order_number !== next.order_number;
      order = next;
      if (created && redeeming && next.reward_minor > 0 && found.get(redeeming)) readRedeemed(found.get(redeeming), next.order_number);
      if (attached && SETTLED.has(order.status) && stampRead !== order.order_number) {
        stampRead = order.order_number;
        readStamp(order.order_number);
      }
      // A cancelled or expired order gives its card uses back: the balances shown are read again.
      if (changed && ['cancelled', 'expired'].includes(order.status)) rereadGiftCards();
      if (changed) render();
    },
    /** A new sale, another organisation, signing out: the next customer starts with nothing found. */
    reset() {
      epoch += 1;
      found.clear();
      customer = null;
      order = null;
      attached = null;
      redeeming = null;
      stampRead = null;
      say('');
      complain('');
      $('card-input').value = '';
      render();
    },
  };
}

/** An answer for the customer before the last reset: nobody is shown it. */
class StaleAnswer extends Error {}

function title(entry) {
  return `${entry.kind === 'prepaid' ? 'Gift card' : 'Loyalty card'} ····${entry.card.identifier_last4}`;
}

function short(key) {
  return key.length > 16 ? `${key.slice(0, 8)}…${key.slice(-6)}` : key;
}

function heldText(card) {
  const count = (n, one) => (n === 1 ? `1 ${one}` : `${n} ${one}s`);
  if (card.prepaid_cards.length + card.loyalty_cards.length === 0) return 'no gift or loyalty card here yet';
  return `${count(card.prepaid_cards.length, 'gift card')} and ${count(card.loyalty_cards.length, 'loyalty card')} here`;
}
