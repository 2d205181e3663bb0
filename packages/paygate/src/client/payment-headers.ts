import { AppError } from '@ctk/shared';
import { PAYMENT_SIGNATURE_HEADER } from '../headers.js';
import type { Brc121Remittance } from './plan-brc121.js';
import type { PaymentOffer } from './read-offer.js';

/** What the `pay` callback hands back: the signed transaction as BEEF, and which output pays. */
export type PayResult = {
  /** BEEF bytes (atomic or not), carrying the inputs' ancestors with their merkle paths. */
  beef: Uint8Array | number[];
  /** The index of the output that pays the offer. */
  vout: number;
  /** The transaction's id, when known (reported to `onPayment`). */
  txid?: string;
  /** The payer's compressed public key (hex): BRC-121's `x-bsv-sender` when the client has no `identityKey`. */
  sender?: string;
};

/**
 * The retry's payment headers: x402's `payment-signature` (base64 JSON with the resource, the `accepts`
 * entry chosen and the payload), or BRC-121's `x-bsv-beef`, `-sender`, `-nonce`, `-time` and `-vout`.
 */
export function paymentHeaders(offer: PaymentOffer, paid: PayResult, remittance?: Brc121Remittance): Record<string, string> {
  const transaction = Buffer.from(paid.beef).toString('base64');
  if (offer.scheme === 'x402') {
    const payment = {
      x402Version: 2,
      resource: offer.paymentRequired?.resource,
      accepted: offer.accepted,
      payload: { transaction, vout: paid.vout },
    };
    return { [PAYMENT_SIGNATURE_HEADER]: Buffer.from(JSON.stringify(payment)).toString('base64') };
  }
  const sender = remittance?.sender ?? paid.sender;
  if (!remittance || !sender || !/^0[23][0-9a-f]{64}$/i.test(sender))
    throw new AppError(
      'bad_request',
      "A BRC-121 payment needs the payer's compressed public key: give `identityKey`, or have `pay` return `sender`.",
    );
  return {
    'x-bsv-beef': transaction,
    'x-bsv-sender': sender,
    'x-bsv-nonce': remittance.nonce,
    'x-bsv-time': remittance.time,
    'x-bsv-vout': String(paid.vout),
  };
}
