// What the counter reads from a scanned or typed card, and what it says about cards, without the DOM
// (docs/decisions/0017-customer-cards.md, "Identifiers" and "The counter screen").

import { formatMoney } from './money.js';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/**
 * What staff scanned or typed: a card identifier (dashes, spaces and case ignored, I and L read as 1 and O
 * as 0, as pos reads it), a customer's address or compressed public key (a `bitcoin:` URI of a wallet's QR
 * gives its address), or nothing the counter knows.
 * @returns {{ kind: 'identifier', identifier: string } | { kind: 'address', address: string } |
 *   { kind: 'public_key', publicKey: string } | { kind: 'unknown' }}
 */
export function readCardInput(text) {
  const trimmed = String(text).trim();
  const compact = trimmed.replace(/[\s-]/g, '').toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
  if (CROCKFORD.test(compact)) return { kind: 'identifier', identifier: compact.match(/.{4}/g).join('-') };
  const uri = /^bitcoin:([^?]*)/i.exec(trimmed);
  const value = uri ? uri[1] : trimmed;
  if (/^0[23][0-9a-fA-F]{64}$/.test(value)) return { kind: 'public_key', publicKey: value.toLowerCase() };
  if (/^[1-9A-HJ-NP-Za-km-z]{25,35}$/.test(value)) return { kind: 'address', address: value };
  return { kind: 'unknown' };
}

/** A gift card's state in words, for the line under its balance. */
export function prepaidStatusText(card) {
  switch (card.status) {
    case 'active':
      return 'Active';
    case 'empty':
      return 'Empty: nothing left to spend';
    case 'pending':
      return 'Not active yet: the order that sells it is not paid';
    case 'void':
      return 'Void: it was never paid for';
    default:
      return String(card.status ?? '');
  }
}

/**
 * "7 of 10 stamps", and what they pay for; with rewards to take, those first, then the stamps the card
 * has toward the next (never "21 of 10 stamps").
 */
export function stampsText(card) {
  if (card.rewards_available > 0) {
    const rewards = card.rewards_available === 1 ? '1 reward' : `${card.rewards_available} rewards`;
    const toward = card.stamps - card.rewards_available * card.stamps_for_reward;
    return `${rewards} available (${card.reward}); ${toward} of ${card.stamps_for_reward} stamps toward the next`;
  }
  const more = card.stamps_for_reward - card.stamps;
  return `${card.stamps} of ${card.stamps_for_reward} stamps: ${more} more for ${card.reward}`;
}

/**
 * A refused card operation in the words a clerk acts on; `currency` formats a balance the API gives in
 * minor units. Anything else keeps the API's own message.
 */
export function cardErrorText(error, currency) {
  const details = error?.details ?? {};
  switch (error?.code) {
    case 'insufficient_balance': {
      const balance = details.balance_minor === undefined ? null : Number(details.balance_minor);
      if (balance === 0) return 'The gift card is empty: take the rest another way.';
      const holds = balance === null ? 'less' : formatMoney(balance, currency);
      return `The gift card holds only ${holds}: enter a smaller amount, or leave it empty to take what it holds.`;
    }
    case 'card_not_active':
      return details.status === 'void'
        ? 'The gift card is void: it was never paid for.'
        : 'The gift card is not active yet: the order that sells it is not paid.';
    case 'not_found':
      return 'No card of this shop has that identifier: check it (scan it again) and retry.';
    case 'not_enough_stamps':
      return 'The loyalty card has not enough stamps for a reward yet.';
    case 'already_stamped':
      return 'This order has already stamped a loyalty card.';
    case 'rate_limited':
      return 'Too many card look-ups from this counter: wait a minute and try again.';
    case 'validation_failed':
      return details.field === 'amount_minor'
        ? 'The amount is more than the order still needs: enter less, or leave it empty to take what is due.'
        : error.message;
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
