import { ApiError } from './api.js';
import { termsRefusal } from './contract-terms.js';
import { describe } from './form.js';
import { formatDateTime, shopZone } from './format.js';
import { contractParties, type Parties } from './joint-parties.js';
import type { JointTransaction } from './joint-transactions.js';

export type TimelockedRefundStatus = 'awaiting_funding' | 'signing_refund' | 'funding' | 'active' | 'released' | 'cancelled' | 'refunded';

/**
 * A time-locked refund as the contracts routes answer it (decision 0039): a 2-of-2 lock of the buyer's and the
 * shop's keys, and a refund to the buyer both sign before the money moves, which the chain takes only after
 * `refund_after`.
 */
export type TimelockedRefund = {
  id: string;
  status: TimelockedRefundStatus;
  org_handle: string;
  description: string;
  satoshis: number;
  buyer_public_key: string;
  /** The shop's wallet identity key. */
  seller_public_key: string;
  lock_script: string;
  refund_after: string;
  release_address: string;
  refund_address: string;
  funding?: JointTransaction;
  /** Once signed by both, its `signed_transaction` is what the buyer keeps. */
  refund?: JointTransaction;
  release?: JointTransaction;
  cancel?: JointTransaction;
  created_at: string;
  next_steps: string[];
};

/** The form's inputs, by the names the route gives them. */
export type RefundField = 'buyer_public_key' | 'satoshis' | 'refund_after' | 'description' | 'release_address' | 'refund_address';
export type RefundProblems = Partial<Record<RefundField, string>>;

const FIELDS: RefundField[] = ['buyer_public_key', 'satoshis', 'refund_after', 'description', 'release_address', 'refund_address'];

/** The public route of a time-locked refund: its id is the invitation the buyer is given. */
export const refundPath = (id: string) => `/api/v1/timelocked-refunds/${encodeURIComponent(id)}`;

/** The earliest and the latest its refund may be dated, from now (the contracts service's bounds). */
export const EARLIEST_MS = 3_600_000;
export const LATEST_MS = 2 * 365 * 24 * 3_600_000;

/** Its date in the shop's time zone, named: "25 Nov 2026, 18:00 (Europe/London)". */
export const refundDateText = (refund: Pick<TimelockedRefund, 'refund_after'>) => `${formatDateTime(refund.refund_after)} (${shopZone()})`;

/** Where it stands, in words. Waiting for funding with a funding built, the buyer is to sign it. */
export function refundStatusText(refund: TimelockedRefund): string {
  if (refund.status === 'awaiting_funding' && refund.funding) return "Funding: waiting for the buyer's signature";
  return STATUS_TEXT[refund.status];
}

const STATUS_TEXT: Record<TimelockedRefundStatus, string> = {
  awaiting_funding: 'Waiting for the buyer to fund it',
  signing_refund: 'Signing the refund: you and the buyer',
  funding: 'Refund signed: the funding goes to the chain',
  active: 'Active: the lock holds the money',
  released: 'Released to you',
  cancelled: 'Cancelled: paid back to the buyer',
  refunded: 'Refunded to the buyer after its date',
};

/** What happens next, in words for the shop. */
export function refundNextText(refund: TimelockedRefund): string {
  const date = refundDateText(refund);
  switch (refund.status) {
    case 'awaiting_funding':
      return refund.funding
        ? 'The buyer signs the funding in their wallet and hands it back (below). The service keeps it off the chain until you have both signed the refund.'
        : "Give the buyer the link below. Their wallet names the coins that pay into the lock; nothing moves until you have both signed the buyer's refund.";
    case 'signing_refund':
      return `The buyer's funding is signed and kept off the chain. Now you and the buyer each sign the refund below: it pays the buyer back, and the chain takes it only after ${date}. Once you both have, the funding goes to the chain.`;
    case 'funding':
      return 'You have both signed the refund, so the funding goes to the chain now: read it again.';
    case 'active':
      return `The lock holds the money, and the buyer holds the signed refund. After ${date} the service sends the refund to the chain. Until then you can both sign a release to you (the deal is done), or cancel it and pay the buyer back now.`;
    case 'released':
      return 'The lock paid you. The refund can never be taken now: the release spent the lock first.';
    case 'cancelled':
      return 'The lock paid the buyer back early. Nothing more to do.';
    case 'refunded':
      return 'The refund paid the buyer back after its date. Nothing more to do.';
  }
}

/** The buyer's and the shop's keys and where the money goes, named as the page says them. */
export function refundParties(refund: TimelockedRefund): Parties {
  return contractParties({ [refund.buyer_public_key]: 'the buyer', [refund.seller_public_key]: 'you' }, refund, 'the lock');
}

/** A time-locked refund refused (`POST /api/v1/orgs/:handle/timelocked-refunds`), beside its field where it has one. */
export function refundTermsRefusal(error: unknown): { problem: string; fields: RefundProblems } {
  return termsRefusal(error, {
    fields: FIELDS,
    contract: 'The lock',
    then: 'agree the time-locked refund',
    text: (field, message) => {
      if (/two different keys/.test(message)) return 'That is your own wallet’s key: the buyer must hold a key of their own.';
      if (field === 'refund_after') return 'Choose a date and time at least an hour and at most two years from now.';
      return undefined;
    },
  });
}

/** A release or cancel proposal refused (`POST /api/v1/timelocked-refunds/:id/settlement`). */
export function settlementRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.code === 'failed_precondition') {
    const reason = error.details?.reason;
    if (reason === 'released' || reason === 'cancelled' || reason === 'refunded')
      return `This one is ${reason} already: there is nothing left in the lock. Read it again.`;
    return 'The lock is not funded yet: the buyer funds it and you both sign the refund first, then the funding goes to the chain.';
  }
  return error.message;
}
