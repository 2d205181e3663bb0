import { ApiError } from './api.js';

/** A stablecoin payment intent as the API answers it (decision 0036). */
export type StablecoinIntent = {
  id: string;
  status: 'requires_payment' | 'succeeded' | 'expired' | 'canceled';
  org_handle: string;
  order_number: string;
  description: string;
  amount_cents: number;
  tax_cents: number;
  currency: string;
  payment: {
    token_id: string;
    symbol: string;
    decimals: number;
    token_amount: string;
    address: string;
    cosigner_public_key: string;
  };
  transfers: { txid: string; vout: number; token_amount: string; outcome: string; reason?: string; received_at: string }[];
  expires_at: string;
  created_at: string;
  succeeded_at: string | null;
};

/**
 * Token units as the token's own decimal: "1250000" of a 5-decimal token is "12.50 USDX". Read as text, never a
 * float; zeros past the cents are dropped, a finer amount keeps its digits (the counter's pages say the same).
 */
export function tokenAmountText(payment: Pick<StablecoinIntent['payment'], 'token_amount' | 'decimals' | 'symbol'>): string {
  const decimals = Number(payment.decimals) || 0;
  const digits = String(payment.token_amount || '0').padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, '');
  let fraction = decimals > 0 ? digits.slice(-decimals) : '';
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${new Intl.NumberFormat('en-US').format(BigInt(whole))}${fraction ? `.${fraction}` : ''} ${payment.symbol}`;
}

/** Where an intent stands, in words. */
export function intentStatusText(intent: StablecoinIntent): string {
  switch (intent.status) {
    case 'requires_payment':
      return `Waiting for the ${intent.payment.symbol} transfer`;
    case 'succeeded':
      return `Paid in ${intent.payment.symbol}`;
    case 'expired':
      return 'Expired: nothing was paid';
    case 'canceled':
      return 'Cancelled: nothing was paid';
  }
}

/** Settle's refusal of a pasted transaction id, in words the person at the page acts on. */
export function settleRefusalText(error: unknown, intent: StablecoinIntent): string {
  if (!(error instanceof ApiError)) return 'The payment could not be checked just now. Try again in a moment.';
  const symbol = intent.payment.symbol;
  const words: Record<string, string> = {
    payment_underpaid: `That transfer sent less than ${tokenAmountText(intent.payment)} to this payment's address. Send the whole amount in one transfer.`,
    stablecoin_wrong_token: `That transfer sent another token, not ${symbol}. Send ${symbol} to pay.`,
    payment_wrong_output: `That transaction sends no ${symbol} this shop can use to this payment's address. Check the address and the transaction id.`,
    stablecoin_not_approved: `The ${symbol} cosigner did not approve that transfer, so it cannot pay. Send it from a wallet that has the cosigner approve it.`,
    payment_expired:
      'This payment request expired before the transfer arrived. Request a new one; refund a late transfer from your wallet.',
    txid_already_used: 'That transaction has already paid for something else: it cannot pay this too.',
    stablecoin_transfer_invalid: `That transfer moves ${symbol} its sender did not hold, so it carries none.`,
    not_found: 'No transaction with that id is on the chain yet. Check the id, or wait a moment and try again.',
    unavailable: 'The payment could not be checked just now. Try again in a moment.',
    chain_unavailable: 'The payment could not be checked just now. Try again in a moment.',
  };
  if (error.code === 'failed_precondition' && error.details?.reason === 'refund_due')
    return 'This payment was already paid or closed: the transfer is kept in your wallet for you to refund.';
  return words[error.code] ?? error.message;
}
