import type { JointTransaction } from './joint-transactions.js';
import { contractParties, type Parties } from './joint-parties.js';

export type EscrowStatus = 'awaiting_funding' | 'funding' | 'funded' | 'settling' | 'released' | 'refunded';

/** Funded, whether pos took the escrow as its order's payment: not asked or not reached yet, taken, or refused. */
export type OrderPayment = 'pending' | 'paid' | 'refused';

/** An escrow as the contracts routes answer it (a 2-of-3 lock of the buyer's, the shop's and an arbiter's keys). */
export type Escrow = {
  id: string;
  status: EscrowStatus;
  org_handle: string;
  description: string;
  satoshis: number;
  buyer_public_key: string;
  /** The shop's wallet identity key. */
  seller_public_key: string;
  arbiter_public_key: string;
  lock_script: string;
  release_address: string;
  refund_address: string;
  funding?: JointTransaction;
  release?: JointTransaction;
  refund?: JointTransaction;
  created_at: string;
  next_steps: string[];
  /** The shop's pos order it pays, for an escrow of one: the lock holds what the order was due and the release's fee. */
  order_number?: string;
  /** That order's total in minor units of its currency, as pos priced it when the escrow was agreed. */
  order_total_minor?: number;
  currency?: string;
  order_payment?: OrderPayment;
  /** Why pos refused it, in pos's words (null while it has not). */
  order_refusal?: string | null;
};

/** The public route of an escrow: its id is the invitation the buyer and the arbiter are given. */
export const escrowPath = (id: string) => `/api/v1/escrows/${encodeURIComponent(id)}`;

/** Where it stands, in words. */
export const ESCROW_STATUS_TEXT: Record<EscrowStatus, string> = {
  awaiting_funding: 'Waiting for the buyer to fund it',
  funding: "Funding: waiting for the buyer's signature",
  funded: 'Funded: the lock holds the money',
  settling: 'Settling: waiting for two signatures',
  released: 'Released to you',
  refunded: 'Refunded to the buyer',
};

/** What happens next, in words for the shop. */
export const ESCROW_NEXT_TEXT: Record<EscrowStatus, string> = {
  awaiting_funding: "Give the buyer the escrow's link. Their wallet names the coins that pay into the lock, and then signs the funding.",
  funding: 'The buyer signs the funding in their wallet and hands it back (below). Once it is on the chain, the lock holds the money.',
  funded:
    'The money is locked: nobody can move it alone. When the buyer has what they paid for, propose the release; if the deal is off, propose a refund.',
  settling:
    'Two of the three sign the release or the refund, each in their own wallet; the first one with two signatures goes to the chain.',
  released: 'The lock paid you. Nothing more to do.',
  refunded: 'The lock paid the buyer back. Nothing more to do.',
};

/** The three parties' keys and where the money goes, named as the page says them. */
export function escrowParties(escrow: Escrow): Parties {
  const keys = { [escrow.buyer_public_key]: 'the buyer', [escrow.seller_public_key]: 'you', [escrow.arbiter_public_key]: 'the arbiter' };
  return contractParties(keys, escrow, "the escrow's lock");
}

/**
 * For an escrow of an order: whether pos holds the order paid by it, in words; a refusal says to refund the
 * buyer. Undefined for an escrow of satoshis.
 */
export function orderPaymentText(escrow: Escrow): string | undefined {
  const refunded = escrow.status === 'refunded';
  switch (escrow.order_payment) {
    case 'paid':
      // A refund changes nothing in pos: the order stays paid elsewhere by the escrow (decision 0038).
      return refunded
        ? 'pos still holds the order paid by this escrow, though the lock refunded the buyer.'
        : 'pos holds the order paid by this escrow.';
    case 'refused': {
      const refusal = (escrow.order_refusal ?? 'the order was paid another way or cancelled first').replace(/\.$/, '');
      return `pos refused it: ${refusal} — ${refunded ? 'the buyer is refunded.' : 'refund the buyer.'}`;
    }
    case 'pending':
      return escrow.status === 'awaiting_funding' || escrow.status === 'funding'
        ? 'Waiting for funding: once the lock holds the money, pos holds the order paid by this escrow.'
        : 'The lock holds the money, and pos could not be asked yet to hold the order paid by it: read the escrow again.';
  }
}
