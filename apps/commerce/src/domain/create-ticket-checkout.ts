import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import { newPublicToken } from '../checkouts/public-token.js';
import type { TicketContext } from '../tickets/ticket-context.js';
import type { CheckoutWithOrder } from './create-checkout.js';

const MAX_LINES = 20;
const MAX_QUANTITY = 100n;
/** How long seats are held before pos has opened the order (then they are held until the order expires). */
const OPENING_HOLD_MS = 60_000;
export const TICKETS_NOTE = 'Online ticket checkout';

const ticketCheckoutSchema = z.object({
  lines: z
    .array(
      z.object({
        ticketTypeId: z.guid('ticket_type_id must be a ticket type id (a UUID)'),
        quantity: z
          .bigint()
          .min(1n, 'quantity must be at least 1')
          .max(MAX_QUANTITY, `quantity must be at most ${MAX_QUANTITY}`)
          .default(1n),
      }),
    )
    .min(1, 'a checkout needs at least one line')
    .max(MAX_LINES, `a ticket checkout takes at most ${MAX_LINES} lines`),
  publicUrl: z.url({ protocol: /^https?$/, error: 'public_url must be an http(s) URL' }),
  clientAddress: z.string().max(100).default(''),
});

/**
 * A ticket checkout (decision 0020): the seats of every line are held first (never past a type's
 * capacity: `sold_out` naming the line), then pos opens an order of keypad lines priced from the ticket
 * catalog (never the browser), and the checkout is recorded with the holds, which now end when the order
 * expires. Whatever fails after the seats were taken gives them back (and cancels the order if opened).
 * Anonymous holds are bounded (docs/decisions/0024-proof-holds-and-privacy.md): a checkout takes at most
 * `seatsPerCheckout` seats, one client address holds at most `seatsPerClient` unpaid at the shop, and the
 * seats are held `holdMs` at most (the order may still be paid later: sold if seats are free, else unfulfilled).
 */
export async function createTicketCheckout(
  context: TicketContext,
  orgRef: OrgRef | undefined,
  input: z.input<typeof ticketCheckoutSchema>,
): Promise<CheckoutWithOrder> {
  const org = orgOf(orgRef);
  const request = validate(ticketCheckoutSchema, input);
  const now = context.now();
  const types = new Map(
    (
      await context.tickets.types(
        org.id,
        request.lines.map((line) => line.ticketTypeId),
      )
    ).map((t) => [t.id, t]),
  );
  const seen = new Set<string>();
  const lines = request.lines.map((line, index) => {
    const field = `lines[${index}].ticket_type_id`;
    const type = types.get(line.ticketTypeId);
    if (!type || type.event.removedAt || type.event.endsAt <= now)
      throw new AppError('validation_failed', `No ticket type ${line.ticketTypeId} is for sale in this shop`, { field });
    if (seen.has(type.id)) throw new AppError('validation_failed', 'Each ticket type appears on one line', { field });
    seen.add(type.id);
    return { type, quantity: Number(line.quantity), field };
  });
  const { seatsPerCheckout, seatsPerClient, holdMs } = context.holdLimits;
  const seats = lines.reduce((sum, line) => sum + line.quantity, 0);
  if (seats > seatsPerCheckout) {
    throw new AppError('validation_failed', `A checkout takes at most ${seatsPerCheckout} tickets; this one asks ${seats}.`, {
      field: 'lines',
      max_seats: seatsPerCheckout,
    });
  }
  const currency = lines[0]!.type.currency;
  lines.forEach((line) => {
    if (line.type.currency !== currency)
      throw new AppError('validation_failed', `A checkout takes tickets of one currency (${currency})`, { field: line.field });
  });

  const client = request.clientAddress ? { organizationId: org.id, address: request.clientAddress, maxSeats: seatsPerClient } : undefined;
  const holds = await context.tickets.hold(lines, now, new Date(now.getTime() + OPENING_HOLD_MS), client);
  const holdIds = holds.map((hold) => hold.id);
  let order;
  try {
    ({ order } = await context.pos.createOrder(
      {
        org: orgRef,
        lines: lines.map((line) => ({
          name: `${line.type.event.name}: ${line.type.name}`,
          unitPriceMinor: line.type.priceMinor,
          quantity: BigInt(line.quantity),
          modifiers: [],
        })),
        currency,
        publicUrl: request.publicUrl,
        note: TICKETS_NOTE,
        clientAddress: request.clientAddress,
      },
      { timeoutMs: 10_000 },
    ));
    if (!order) throw new AppError('internal', 'pos answered without the order');
  } catch (error) {
    await context.tickets.release({ holdIds }, context.now()).catch(() => undefined);
    throw error;
  }
  try {
    const checkout = await context.checkouts.create({
      organizationId: org.id,
      kind: 'tickets',
      publicToken: newPublicToken(),
      orderNumber: order.orderNumber,
      currency: order.currency,
      totalMinor: order.totalMinor,
      taxMinor: order.taxMinor,
      satoshis: order.satoshis,
      expiresAt: new Date(order.expiresAt),
      createdAt: now,
      updatedAt: now,
    });
    const heldUntil = Math.min(new Date(order.expiresAt).getTime(), now.getTime() + holdMs);
    await context.tickets.attach(holdIds, checkout.id, new Date(heldUntil), context.now());
    return { checkout, order, tickets: [] };
  } catch (error) {
    await context.tickets.release({ holdIds }, context.now()).catch(() => undefined);
    await context.pos.cancelOrder({ org: orgRef, orderNumber: order.orderNumber, publicUrl: request.publicUrl }).catch(() => undefined);
    throw error;
  }
}
