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

/** BIP270's PaymentRequest, in its own field names (not the contract's). */
export const paymentRequest = named(
  'Bip270PaymentRequest',
  z.object({
    network: z.string(),
    outputs: z.array(z.object({ script: z.string(), amount: z.number().int(), description: z.string() })),
    creationTimestamp: z.number().int(),
    expirationTimestamp: z.number().int(),
    memo: z.string(),
    paymentUrl: z.string(),
    merchantData: z.string(),
  }),
  {
    network: 'bitcoin-sv',
    outputs: [
      {
        script: '76a914751e76e8199196d454941c45d1b3a323f1433bd688ac',
        amount: 37_220_000,
        description: `Order ${ORDER_NUMBER} at blue-bottle-cafe`,
      },
      {
        script:
          '006a0b63746b2e72656365697074013125626c75652d626f74746c652d636166654070' +
          '61792e6578616d706c652e636f6d0a3751324d394b345831432059f1c6ad0f0b1f3e7a2c4d8e9b0a1f2e3d4c5b6a79887766554433221100ffeedd',
        amount: 0,
        description: 'Receipt',
      },
    ],
    creationTimestamp: 1_772_443_800,
    expirationTimestamp: 1_772_444_700,
    memo: `Order ${ORDER_NUMBER} at blue-bottle-cafe`,
    paymentUrl: `https://pay.example.com/api/pos/orders/${ORDER_NUMBER}/payment`,
    merchantData: `{"order_number":"${ORDER_NUMBER}"}`,
  },
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
