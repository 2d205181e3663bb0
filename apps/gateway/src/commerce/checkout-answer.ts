import type { DescMessage } from '@bufbuild/protobuf';
import type { Checkout } from '@ctk/proto/ctk/commerce/v1/commerce';
import { AppError } from '@ctk/shared';
import { toJson } from '../contract/json-mapping.js';

/**
 * A checkout as its shopper's browser is answered it: `view` (CommerceCheckout, CommerceTicketCheckout or
 * CommerceCheckoutStatus, decision 0027) takes its fields from the checkout and its order side by side,
 * with the order's QR code and event stream under `origin`, the origin the browser reached. `lines`
 * stand for the order's where the route knows more of them (a ticket checkout's ticket types).
 */
export function checkoutAnswer(
  view: DescMessage,
  checkout: Checkout | undefined,
  origin: string,
  lines?: object[],
): Record<string, unknown> {
  if (!checkout?.order) throw new AppError('internal', 'commerce answered without the checkout or its order');
  const { order } = checkout;
  const orderUrl = `${origin}/api/pos/orders/${order.orderNumber}`;
  const links = { lines: lines ?? order.lines, qrUrl: `${orderUrl}/qr`, eventsUrl: `${orderUrl}/events` };
  // The checkout's fields over its order's (the view has no field `order`).
  return toJson(view, links, checkout, order);
}
