import { cursorPosition, pageLimit, takePage, validate, type Org } from '@ctk/shared';
import { z } from 'zod';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';

const STATUSES = ['open', 'paid', 'confirmed', 'expired', 'cancelled', 'paid_elsewhere'] as const;

const listSchema = z.object({
  status: z.union([z.literal(''), z.enum(STATUSES)], { error: `status must be one of ${STATUSES.join(', ')}` }),
  search: z
    .string()
    .regex(/^[0-9A-HJKMNP-TV-Z]{0,10}$/i, 'search must be the start of an order number: up to 10 letters and digits such as 7Q2M')
    .transform((search) => search.toUpperCase()),
  limit: pageLimit(50, 100),
  cursor: z.string(),
});

/**
 * The organisation's orders for its staff, newest first, a page at a time: all of them, those in one
 * status, or those whose number starts with what was typed (in any case). nextCursor is empty on the last page.
 */
export async function listOrders(
  context: OrderContext,
  org: Org,
  input: { status: string; search: string; limit: number; cursor: string },
): Promise<{ orders: OrderWithParts[]; nextCursor: string }> {
  const { status, search, limit, cursor } = validate(listSchema, input);
  const rows = await context.orders.list(org.id, { status, search }, limit + 1, cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (order) => ({ at: order.createdAt, id: order.id }));
  return { orders: page, nextCursor };
}
