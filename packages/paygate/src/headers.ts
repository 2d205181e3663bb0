/** The payment headers of the contract (lower-case), the only request headers the middleware forwards to the gate. */
export const PAYMENT_HEADERS = [
  'x-bsv-beef',
  'x-bsv-sender',
  'x-bsv-nonce',
  'x-bsv-time',
  'x-bsv-vout',
  'payment-signature',
  'x-ctk-credential',
] as const;
export type PaymentHeader = (typeof PAYMENT_HEADERS)[number];

/** Headers that carry a transaction (a BEEF): they may be large, the others are a few dozen bytes. */
export const TRANSACTION_HEADERS: ReadonlySet<string> = new Set(['x-bsv-beef', 'payment-signature']);

export const CREDENTIAL_HEADER = 'x-ctk-credential';
export const PAYMENT_REQUIRED_HEADER = 'payment-required';
export const PAYMENT_RESPONSE_HEADER = 'payment-response';
export const PAYMENT_SIGNATURE_HEADER = 'payment-signature';
