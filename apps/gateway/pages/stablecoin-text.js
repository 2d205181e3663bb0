// A stablecoin payment intent in words (decision 0036): its token amount as the dollars it is, its status, and
// settle's refusals as a customer understands them. Pure functions: the counter, the customer page and their
// tests share them.

/**
 * Token units as the stablecoin's own decimal: "1250000" of a 5-decimal token -> "12.50 USDX". Read as text,
 * never a float; trailing zeros past the cents are dropped, a finer amount keeps its digits.
 */
export function tokenAmountText(payment) {
  const decimals = Number(payment.decimals) || 0;
  const digits = String(payment.token_amount ?? '0').padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, '');
  let fraction = decimals > 0 ? digits.slice(-decimals) : '';
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const grouped = new Intl.NumberFormat('en-US').format(BigInt(whole));
  return `${grouped}${fraction ? `.${fraction}` : ''} ${payment.symbol}`;
}

/** The intent's status for the live status line. */
export function intentStatusText(intent) {
  const symbol = intent.payment?.symbol ?? 'the stablecoin';
  switch (intent.status) {
    case 'requires_payment':
      return `Waiting for the ${symbol} transfer`;
    case 'succeeded':
      return `Paid in ${symbol}`;
    case 'expired':
      return 'Expired: nothing was paid';
    case 'canceled':
      return 'Cancelled: nothing was paid';
    default:
      return String(intent.status ?? '');
  }
}

/**
 * What settle's refusal means for the customer who pasted a transaction id, in plain words: what went wrong
 * and what to do. A refusal not named here keeps the service's own message.
 */
export function settleRefusalText(error, intent) {
  const amount = intent?.payment ? tokenAmountText(intent.payment) : 'the amount asked';
  const symbol = intent?.payment?.symbol ?? 'the stablecoin';
  switch (error?.code) {
    case 'payment_underpaid':
      return `That transfer sent less than ${amount} to this payment's address. Send the whole amount in one transfer.`;
    case 'stablecoin_wrong_token':
      return `That transfer sent another token, not ${symbol}. Send ${symbol} to pay.`;
    case 'payment_wrong_output':
      return `That transaction sends no ${symbol} this shop can use to this payment's address. Check the address and the transaction id.`;
    case 'stablecoin_not_approved':
      return `The ${symbol} cosigner did not approve that transfer, so it cannot pay. Send it from a wallet that has the cosigner approve it.`;
    case 'payment_expired':
      return 'This payment request expired before the transfer arrived. Ask the shop for a new one; the shop refunds a late transfer.';
    case 'txid_already_used':
      return 'That transaction has already paid for something else: it cannot pay this too.';
    case 'stablecoin_transfer_invalid':
      return `That transfer moves ${symbol} its sender did not hold, so it carries none.`;
    case 'not_found':
      return 'No transaction with that id is on the chain yet. Check the id, or wait a moment and try again.';
    case 'unavailable':
    case 'chain_unavailable':
    case 'network':
      return 'The payment could not be checked just now. Try again in a moment.';
    case 'chain_rejected':
      return 'The network refused that transaction. Check it in your wallet.';
    case 'failed_precondition':
      return error.details?.reason === 'refund_due'
        ? 'This order was already paid or closed: the transfer is kept for the shop to refund.'
        : (error.message ?? 'This payment takes no transfer now.');
    default:
      return error?.message ?? String(error);
  }
}
