import { ApiError } from './api.js';
import { type PosOrder, type ValuedCredits, dueMinorOf, unitsWorth } from './credits.js';
import { describe } from './form.js';
import { formatMoney } from './format.js';
import { amountText } from './tokens.js';

/** Said when the service could not check just now: nothing was refused, so the same again may work. */
const LATER = 'The service could not check that just now. Try again in a moment.';

/** The sale's refusal: too many or no units beside the field (`units`), anything else for the panel. */
export function saleRefusal(error: unknown, token: ValuedCredits): { problem: string; units?: string } {
  if (!(error instanceof ApiError)) return { problem: describe(error) };
  if (error.code === 'validation_failed') {
    const supply = amountText(token.supply, token.decimals, token.symbol);
    return {
      problem: 'Check the number of credits.',
      units: /at most|minted|more than an order/.test(error.message)
        ? `You can sell at most what was minted, ${supply}, and at most what one order takes.`
        : `Sell at least ${amountText(1, token.decimals, token.symbol)}.`,
    };
  }
  if (error.code === 'failed_precondition') return { problem: `${token.symbol} cannot be sold here: ${error.message}` };
  if (error.code === 'unavailable') return { problem: LATER };
  return { problem: error.message };
}

/** Whether credits can pay this order at all, before its redemption address is opened; null when they can. */
export function orderProblem(order: PosOrder, handle: string, token: ValuedCredits): string | null {
  const number = order.order_number;
  if (order.merchant_handle && order.merchant_handle !== handle)
    return `Order ${number} is another shop's: credits pay only your own orders.`;
  if (order.status !== 'open') return `Order ${number} is ${STATUS_WORDS[order.status] ?? order.status}: credits pay only an open order.`;
  if (order.credits_token_id) return `Order ${number} sells credits: it is paid with money, not with credits.`;
  if (order.prepaid_card_id) return `Order ${number} sells a gift card: it is paid with money, not with credits.`;
  if (order.currency !== token.currency)
    return `Order ${number} is in ${order.currency}, and ${token.symbol} are worth ${token.currency}: they pay only orders in ${token.currency}.`;
  const due = dueMinorOf(order);
  if (due === 0n) return `Order ${number} owes nothing more.`;
  if (unitsWorth(token, due) === 0n)
    return `Order ${number} still owes ${formatMoney(due, order.currency)}, less than one ${token.symbol} is worth: take it in money.`;
  return null;
}

const STATUS_WORDS: Partial<Record<PosOrder['status'], string>> = {
  paid: 'paid already',
  confirmed: 'paid already',
  expired: 'expired',
  cancelled: 'cancelled',
  paid_elsewhere: 'paid another way already',
};

/** The order read's refusal: a number that is no order here. */
export function orderReadRefusal(error: unknown, number: string): string {
  if (error instanceof ApiError && (error.code === 'not_found' || error.status === 404))
    return `There is no order ${number}. Check the number on the counter's screen or the receipt.`;
  if (error instanceof ApiError && error.code === 'validation_failed') return ORDER_NUMBER_WORDS;
  return describe(error);
}

export const ORDER_NUMBER_WORDS = 'An order number is ten letters and digits, such as 7Q2M9K4X1C: copy it from the counter or the receipt.';

/** Opening the order's redemption address refused. */
export function addressRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.code === 'validation_failed') return ORDER_NUMBER_WORDS;
  if (error.code === 'failed_precondition' && /single address/.test(error.message))
    return "Your shop's wallet receives every payment at one address, so credits sent there could not say which order they pay. Register your wallet's xpub in Settings, then try again.";
  if (error.code === 'unavailable') return LATER;
  return error.message;
}

/** What the redemption refused, in words staff act on: what was wrong with the transfer, or with the order. */
export function redemptionRefusal(error: unknown, token: ValuedCredits, order: PosOrder, address: string): string {
  if (!(error instanceof ApiError)) return describe(error);
  const { symbol } = token;
  const number = order.order_number;
  const giveBack = `The credits are at your wallet's redemption address for this order: send them back to the customer from your wallet (pnpm wallet send-token).`;
  switch (error.code) {
    case 'payment_wrong_output':
      return `That transaction sends no ${symbol} to this order's address (${address}). Check the transaction id, and that the customer sent to the address above.`;
    case 'stablecoin_wrong_token':
      return `That transfer sent another token to this order's address, not ${symbol}. Have the customer send ${symbol}.`;
    case 'payment_underpaid':
      return `That transfer sent fewer ${symbol} than the customer said they would spend. Check the amount, or leave it empty to take what they sent.`;
    case 'stablecoin_transfer_invalid':
      return `That transfer moves ${symbol} its sender did not hold, so it carries none: it pays nothing.`;
    case 'txid_already_used':
      return 'That transfer was already redeemed against another order: it cannot pay this one too.';
    case 'not_found':
      return error.details?.field === 'txid' || /transaction/i.test(error.message)
        ? 'The chain does not have that transaction yet. Check the id, or wait a moment and redeem again.'
        : `There is no order ${number} at your shop.`;
    case 'validation_failed':
      return 'A transaction id is 64 letters (a to f) and digits: paste it whole, as the customer’s wallet printed it.';
    case 'unavailable':
    case 'chain_unavailable':
      return 'The transfer could not be checked just now (the chain has not validated it yet). Wait a moment and redeem again.';
    case 'failed_precondition': {
      const reason = error.details?.reason;
      if (reason === 'worth_more_than_due') {
        const due = BigInt(Number(error.details?.due_minor ?? 0));
        const most = amountText(unitsWorth(token, due).toString(), token.decimals, symbol);
        return `Those credits are worth more than the ${formatMoney(due, order.currency)} order ${number} still owes, so they paid nothing. ${giveBack} Then have them send at most ${most}.`;
      }
      if (reason === 'paid' || reason === 'confirmed' || reason === 'cancelled' || reason === 'expired' || reason === 'paid_elsewhere')
        return `Order ${number} is ${STATUS_WORDS[reason] ?? reason}: credits pay only an open order, so these paid nothing. ${giveBack}`;
      if (error.details?.claimed_txid)
        return `Order ${number} is being paid in bitcoin right now: credits cannot pay part of it. Wait a moment and look at the order.`;
      if (error.details?.field === 'order_number') return `Open this order's address first (step 1), then redeem.`;
      return error.message;
    }
    default:
      return error.message;
  }
}
