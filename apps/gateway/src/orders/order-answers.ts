import { z } from 'zod';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { named } from '../routes/answer-schema.js';

/**
 * What the order routes answer: pos's Order as the contract gives it (decision 0026), public by design
 * (decision 0015), and how the order routes name the shop, which only the gateway knows.
 */

export const ORDER = messageDesc('ctk.pos.v1.Order');
const ORDER_NUMBER = '7Q2M9K4X1C';

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

/** BIP270's PaymentACK: the Payment echoed, a memo, error 0. */
export const paymentAck = named(
  'Bip270PaymentAck',
  z.object({
    payment: z.object({
      transaction: z.string(),
      merchantData: z.string().optional(),
      memo: z.string().optional(),
      refundTo: z.string().optional(),
    }),
    memo: z.string(),
    error: z.number().int(),
  }),
  {
    payment: { transaction: '0100000001ab…', merchantData: `{"order_number":"${ORDER_NUMBER}"}` },
    memo: `Order ${ORDER_NUMBER} is paid. Thank you.`,
    error: 0,
  },
);

export const ORDER_EVENT_FILES = {
  'text/event-stream': {
    description: 'Server-Sent Events: event `order`, data the order as JSON, at each change until it is final',
    example: `event: order\ndata: {"order_number":"${ORDER_NUMBER}","status":"paid", …}\n\n`,
  },
};
