import type { Checkout } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { minorUnitsOf } from '../routes/answer-schema.js';
import { issuedTicketView } from '../tickets/ticket-view.js';
import type { CheckoutAnswer, checkoutStatus } from './commerce-answers.js';

const minor = minorUnitsOf;

/** A checkout as commerce answers it, with its order's figures and payment request, and where to watch it. */
export function checkoutView(checkout: Checkout | undefined, publicUrl: string): CheckoutAnswer {
  const order = orderOf(checkout);
  const orderUrl = `${publicUrl}/api/pos/orders/${order.orderNumber}`;
  return {
    public_token: checkout!.publicToken,
    status: checkout!.status as CheckoutAnswer['status'],
    merchant_handle: order.merchantHandle,
    currency: order.currency,
    lines: order.lines.map((line) => ({
      item_id: line.itemId,
      name: line.name,
      quantity: Number(line.quantity),
      unit_price_minor: minor(line.unitPriceMinor),
      modifiers: line.modifiers.map((modifier) => ({
        modifier_id: modifier.modifierId,
        name: modifier.name,
        price_minor: minor(modifier.priceMinor),
      })),
      tax_minor: minor(line.taxMinor),
      total_minor: minor(line.totalMinor),
    })),
    subtotal_minor: minor(order.subtotalMinor),
    tax_minor: minor(order.taxMinor),
    total_minor: minor(order.totalMinor),
    prices_include_tax: order.pricesIncludeTax,
    satoshis: Number(order.satoshis),
    paid_satoshis: Number(order.paidSatoshis),
    due_satoshis: Number(order.dueSatoshis),
    exchange_rate: order.exchangeRate,
    order_number: order.orderNumber,
    address: order.address,
    bip21_uri: order.bip21Uri,
    pay_uri: order.payUri,
    payment_request_url: order.paymentRequestUrl,
    qr_url: `${orderUrl}/qr`,
    events_url: `${orderUrl}/events`,
    created_at: checkout!.createdAt,
    expires_at: order.expiresAt,
    paid_at: order.paidAt || null,
    confirmed_at: order.confirmedAt || null,
  };
}

/** What a browser polls: the status and the amounts, and a ticket checkout's tickets once paid. */
export function checkoutStatusView(checkout: Checkout | undefined, publicUrl: string): z.output<typeof checkoutStatus> {
  const order = orderOf(checkout);
  return {
    public_token: checkout!.publicToken,
    status: checkout!.status as CheckoutAnswer['status'],
    currency: order.currency,
    total_minor: minor(order.totalMinor),
    satoshis: Number(order.satoshis),
    paid_satoshis: Number(order.paidSatoshis),
    due_satoshis: Number(order.dueSatoshis),
    expires_at: order.expiresAt,
    paid_at: order.paidAt || null,
    confirmed_at: order.confirmedAt || null,
    provider: (checkout!.provider || null) as z.output<typeof checkoutStatus>['provider'],
    refunded_minor: minor(checkout!.refundedMinor),
    ...(checkout!.kind === 'tickets' ? { tickets: checkout!.tickets.map((ticket) => issuedTicketView(ticket, publicUrl)) } : {}),
  };
}

function orderOf(checkout: Checkout | undefined): Order {
  if (!checkout?.order) throw new AppError('internal', 'commerce answered without the checkout or its order');
  return checkout.order;
}
