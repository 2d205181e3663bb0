import type { Checkout } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CheckoutWithOrder } from '../domain/create-checkout.js';
import { toIssuedTicketMessage } from './ticket-message.js';

/** A checkout and its order; its tickets' QR codes under `publicUrl`. */
export function toCheckoutMessage({ checkout, order, tickets, provider, refundedMinor }: CheckoutWithOrder, publicUrl: string): Checkout {
  return {
    publicToken: checkout.publicToken,
    status: checkout.status,
    createdAt: checkout.createdAt.toISOString(),
    order,
    kind: checkout.kind,
    tickets: (tickets ?? []).map((ticket) => toIssuedTicketMessage(ticket, publicUrl)),
    provider,
    refundedMinor: refundedMinor ?? 0n,
  };
}
