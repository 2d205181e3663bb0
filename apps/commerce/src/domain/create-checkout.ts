import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, ORDER_LIMITS, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { newPublicToken } from '../checkouts/public-token.js';
import type { Checkout } from '../data/checkout-repository.js';
import type { TicketWithNames } from '../data/ticket-repository.js';

// pos's bounds of an order, checked here too: a checkout's lines are read against the catalog before pos sees them,
// and a refusal names this API's fields (modifier_ids).
const { lines: MAX_LINES, modifiersPerLine: MAX_MODIFIERS } = ORDER_LIMITS;
const MAX_QUANTITY = BigInt(ORDER_LIMITS.quantity);
/** On the order, for the merchant's records and the receipt: this order came from the web shop. */
export const ONLINE_NOTE = 'Online checkout';

const lineSchema = z.object({
  itemId: z.guid('item_id must be an item id (a UUID)'),
  quantity: z.bigint().min(1n, 'quantity must be at least 1').max(MAX_QUANTITY, `quantity must be at most ${MAX_QUANTITY}`).default(1n),
  modifierIds: z.array(z.string().min(1).max(100)).max(MAX_MODIFIERS, `a line takes at most ${MAX_MODIFIERS} modifiers`),
});

const checkoutSchema = z.object({
  lines: z.array(lineSchema).min(1, 'a checkout needs at least one line').max(MAX_LINES, `a checkout takes at most ${MAX_LINES} lines`),
  publicUrl: z.url({ protocol: /^https?$/, error: 'public_url must be an http(s) URL' }),
  /** The shopper's client address: p2p bounds the receiving addresses one client holds (decision 0022). */
  clientAddress: z.string().max(100).default(''),
});

/** `tickets`: a ticket checkout's tickets, once paid (decision 0020). */
export type CheckoutWithOrder = {
  checkout: Checkout;
  order: Order;
  tickets?: TicketWithNames[];
  /** Paid through a provider (decision 0019): which, and what it refunded so far. */
  provider?: string;
  refundedMinor?: bigint;
};

/**
 * Opens a checkout for a shopper's browser (decision 0018): every line must be an item of the catalog;
 * pos prices the order from its items (the browser sends no price), takes the rate and holds a receiving
 * output; the checkout is recorded with a new public token. Should the record fail, the order is cancelled.
 */
export async function createCheckout(
  context: CheckoutContext,
  orgRef: OrgRef | undefined,
  input: z.input<typeof checkoutSchema>,
): Promise<CheckoutWithOrder> {
  const org = orgOf(orgRef);
  const request = validate(checkoutSchema, input);
  const catalog = await context.catalogs.read(orgRef as OrgRef);
  const forSale = new Set(catalog.items.map((item) => item.id));
  request.lines.forEach((line, index) => {
    if (!forSale.has(line.itemId))
      throw new AppError('validation_failed', `No item ${line.itemId} is for sale in this shop`, { field: `lines[${index}].item_id` });
  });
  const { order } = await context.pos.createOrder(
    {
      org: orgRef,
      lines: request.lines.map((line) => ({
        itemId: line.itemId,
        quantity: line.quantity,
        modifiers: line.modifierIds.map((modifierId) => ({ modifierId })),
      })),
      publicUrl: request.publicUrl,
      note: ONLINE_NOTE,
      clientAddress: request.clientAddress,
    },
    // pos takes the rate and the tax settings (books', kept while books announces their changes) and asks p2p for an output.
    { timeoutMs: 10_000 },
  );
  if (!order) throw new AppError('internal', 'pos answered without the order');
  try {
    const checkout = await context.checkouts.create({
      organizationId: org.id,
      publicToken: newPublicToken(),
      orderNumber: order.orderNumber,
      currency: order.currency,
      totalMinor: order.totalMinor,
      taxMinor: order.taxMinor,
      satoshis: order.satoshis,
      expiresAt: new Date(order.expiresAt),
      createdAt: context.now(),
      updatedAt: context.now(),
    });
    return { checkout, order };
  } catch (error) {
    // The order would hold a receiving output until it expires: release it (best effort).
    await context.pos.cancelOrder({ org: orgRef, orderNumber: order.orderNumber, publicUrl: request.publicUrl }).catch(() => undefined);
    throw error;
  }
}
