import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { cursorPosition, orgOf, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { TicketContext } from '../tickets/ticket-context.js';

const listSchema = z.object({ limit: pageLimit(50, 100), cursor: z.string().max(200) });

/** The organisation's ticket checkouts, newest first, with their lines, hold and tickets, as last recorded. */
export async function listTicketOrders(context: TicketContext, orgRef: OrgRef | undefined, input: z.input<typeof listSchema>) {
  const org = orgOf(orgRef);
  const { limit, cursor } = validate(listSchema, input);
  const rows = await context.tickets.orders(org.id, cursorPosition(cursor), limit + 1);
  return takePage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
}
export type TicketOrderRow = Awaited<ReturnType<TicketContext['tickets']['orders']>>[number];
