import { ApiError } from './api.js';
import { CHECK_FIELDS, termsRefusal } from './contract-terms.js';
import { ORDER_NUMBER_WORDS } from './credits-refusals.js';
import { describe } from './form.js';

/** The escrow form's inputs, by the names the route gives them. */
export type EscrowField =
  'buyer_public_key' | 'arbiter_public_key' | 'satoshis' | 'order_number' | 'description' | 'release_address' | 'refund_address';
export type EscrowProblems = Partial<Record<EscrowField, string>>;

const FIELDS: EscrowField[] = [
  'buyer_public_key',
  'arbiter_public_key',
  'satoshis',
  'order_number',
  'description',
  'release_address',
  'refund_address',
];

/** Why an order cannot be paid through an escrow (`details.reason` of the route's 409), said beside its number. */
const ORDER_REASONS: Record<string, string> = {
  paid: 'That order is paid already: an escrow pays an open order nothing has paid yet.',
  confirmed: 'That order is paid already: an escrow pays an open order nothing has paid yet.',
  paid_elsewhere: 'That order is paid already, by card, in stablecoin or by another escrow: an escrow pays an open order.',
  expired: 'That order has expired: ring it up again at the counter and give the new number.',
  cancelled: 'That order is cancelled: ring it up again at the counter and give the new number.',
  partly_paid: 'Part of that order is paid already: an escrow pays a whole order. Take the rest at the counter.',
  stored_value: 'That order sells a gift card or credits: it is paid at the counter, not through an escrow.',
  referral: "That order was sold through a referral link: its payment pays the referrer's share, in bitcoin only, not through an escrow.",
  in_escrow: 'Another escrow pays that order already: see it below, or ring the order up again for a new escrow.',
};

/**
 * An escrow refused (`POST /api/v1/orgs/:handle/escrows`), in words the merchant acts on: a shop with no wallet
 * identity key (its key in the lock) is sent to Settings; bad input, and an order an escrow cannot pay, are said
 * beside their field.
 */
export function agreeRefusal(error: unknown): { problem: string; fields: EscrowProblems } {
  if (error instanceof ApiError && error.code === 'failed_precondition') {
    const order = ORDER_REASONS[String(error.details?.reason)];
    if (order) return { problem: CHECK_FIELDS, fields: { order_number: order } };
  }
  return termsRefusal(error, {
    fields: FIELDS,
    contract: 'An escrow',
    then: 'agree the escrow',
    text: (field, message) => {
      if (/three different keys/.test(message))
        return 'The buyer, you and the arbiter must each hold a key of their own: this key is already another party’s.';
      if (field === 'order_number') {
        if (/has no order/.test(message))
          return "Your shop has no order with that number. Check it on the counter's screen or the receipt.";
        if (/at least/.test(message))
          return 'That order is due too little for an escrow: it must come to at least 1,000 satoshis, so that the fee leaves something.';
        return ORDER_NUMBER_WORDS;
      }
      if (field === 'satoshis' && /one of them/.test(message)) return "Give the amount in satoshis or a pos order's number, one of them.";
      return undefined;
    },
  });
}

/** A release or refund proposal refused (`POST /api/v1/escrows/:id/settlement`). */
export function settleRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.code === 'failed_precondition') {
    const reason = error.details?.reason;
    if (reason === 'released' || reason === 'refunded') return `This escrow is ${reason} already: there is nothing left in the lock.`;
    if (reason === 'order_refused')
      return 'pos did not take this escrow as its order’s payment (the order was paid another way or cancelled first), so it cannot be released to you: refund the buyer.';
    return 'The lock is not funded yet: the buyer funds it first, and it must be on the chain.';
  }
  if (error.code === 'unavailable')
    return 'pos could not be reached to hold the order paid by this escrow, and it is released only once pos does. Try again in a moment.';
  return error.message;
}
