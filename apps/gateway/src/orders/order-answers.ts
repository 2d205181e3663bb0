import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { z } from 'zod';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { named } from '../routes/answer-schema.js';

/**
 * What the order routes answer: pos's Order as the contract gives it (decision 0026), public by design
 * (decision 0015), and how the order routes name the shop, which only the gateway knows.
 */

const ORDER = messageDesc('ctk.pos.v1.Order');

/** An order's JSON (the contract's mapping), with the fields the gateway reads of it typed. */
export type OrderJson = Record<string, unknown> & { merchant_handle: string };

/** An order as pos answers it, as the API shows it: the contract's Order by its one JSON mapping. */
export function orderView(order: Order | undefined): OrderJson {
  return toJson(ORDER, order as Record<string, unknown> | undefined) as OrderJson;
}

export const order = named(
  'PosOrder',
  (messageSchema(ORDER, 'answer') as z.ZodObject).extend({
    merchant_name: z.string().optional().describe("The shop's name (on the order routes, for the customer's page and receipt)"),
    merchant_paymail: z
      .string()
      .nullable()
      .optional()
      .describe("The shop's paymail, alias@domain where it chose an alias, else null: a name that resolves, unlike receipt_merchant"),
  }),
  { ...(exampleOf(ORDER) as object), merchant_name: 'Blue Bottle Cafe', merchant_paymail: 'cafe@pay.example.com' },
);

export const ORDER_EVENT_FILES = {
  'text/event-stream': {
    description: 'Server-Sent Events: event `order`, data the order as JSON, at each change until it is final',
    example: 'event: order\ndata: {"order_number":"7Q2M9K4X1C","status":"paid", …}\n\n',
  },
};
