import type { GetPaymentRequestResponse, Order, OrderLine, OrderQuote } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { minorUnitsOf } from '../routes/answer-schema.js';
import type { OrderAnswer, OrderQuoteAnswer, paymentRequest } from './order-answers.js';

const minor = minorUnitsOf;

function lineView(line: OrderLine): OrderAnswer['lines'][number] {
  return {
    item_id: line.itemId,
    name: line.name,
    quantity: Number(line.quantity),
    unit_price_minor: minor(line.unitPriceMinor),
    modifiers: line.modifiers.map((modifier) => ({
      modifier_id: modifier.modifierId,
      name: modifier.name,
      price_minor: minor(modifier.priceMinor),
    })),
    discount_minor: minor(line.discountMinor),
    tax_treatment: line.taxTreatment as OrderAnswer['lines'][number]['tax_treatment'],
    tax_rate: line.taxRate,
    tax_minor: minor(line.taxMinor),
    total_minor: minor(line.totalMinor),
  };
}

/** An order as pos answers it, as the API shows it: the contract's Order in snake_case. */
export function orderView(order: Order | undefined): OrderAnswer {
  if (!order) throw new AppError('internal', 'pos answered without the order');
  return {
    order_number: order.orderNumber,
    status: order.status as OrderAnswer['status'],
    currency: order.currency,
    lines: order.lines.map(lineView),
    subtotal_minor: minor(order.subtotalMinor),
    discount_minor: minor(order.discountMinor),
    tax_minor: minor(order.taxMinor),
    tip_minor: minor(order.tipMinor),
    total_minor: minor(order.totalMinor),
    prices_include_tax: order.pricesIncludeTax,
    tax_jurisdiction: order.taxJurisdiction,
    exchange_rate: order.exchangeRate,
    rate_source: order.rateSource,
    rate_at: order.rateAt,
    satoshis: Number(order.satoshis),
    paid_satoshis: Number(order.paidSatoshis),
    due_satoshis: Number(order.dueSatoshis),
    flags: order.flags as OrderAnswer['flags'],
    address: order.address,
    bip21_uri: order.bip21Uri,
    pay_uri: order.payUri,
    payment_request_url: order.paymentRequestUrl,
    payments: order.payments.map((payment) => ({
      txid: payment.txid,
      satoshis: Number(payment.satoshis),
      via: payment.via as OrderAnswer['payments'][number]['via'],
      status: payment.status,
      received_at: payment.receivedAt,
      late: payment.late,
    })),
    note: order.note,
    created_at: order.createdAt,
    expires_at: order.expiresAt,
    paid_at: order.paidAt || null,
    confirmed_at: order.confirmedAt || null,
    cancelled_at: order.cancelledAt || null,
    receipt_merchant: order.receiptMerchant,
    receipt_reference: order.receiptReference,
    merchant_handle: order.merchantHandle,
    card_paid_minor: minor(order.cardPaidMinor),
    prepaid_card_id: order.prepaidCardId || null,
    paid_elsewhere_by: (order.paidElsewhereBy || null) as OrderAnswer['paid_elsewhere_by'],
    reward_minor: minor(order.rewardMinor),
    reward: order.reward,
  };
}

/** pos's quote of an order request, as the API shows it (decision 0023). */
export function orderQuoteView(quote: OrderQuote | undefined): OrderQuoteAnswer {
  if (!quote) throw new AppError('internal', 'pos answered without the quote');
  return {
    currency: quote.currency,
    lines: quote.lines.map(lineView),
    subtotal_minor: minor(quote.subtotalMinor),
    discount_minor: minor(quote.discountMinor),
    reward_minor: minor(quote.rewardMinor),
    reward: quote.reward,
    tax_minor: minor(quote.taxMinor),
    tip_minor: minor(quote.tipMinor),
    total_minor: minor(quote.totalMinor),
    prices_include_tax: quote.pricesIncludeTax,
    tax_jurisdiction: quote.taxJurisdiction,
  };
}

/** pos's BIP270 PaymentRequest in BIP270's own field names. */
export function paymentRequestView(request: GetPaymentRequestResponse): z.output<typeof paymentRequest> {
  return {
    network: request.network,
    outputs: request.outputs.map((output) => ({ script: output.script, amount: Number(output.amount), description: output.description })),
    creationTimestamp: Number(request.creationTimestamp),
    expirationTimestamp: Number(request.expirationTimestamp),
    memo: request.memo,
    paymentUrl: request.paymentUrl,
    merchantData: request.merchantData,
  };
}
