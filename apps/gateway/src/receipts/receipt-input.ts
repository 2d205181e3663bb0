import { z } from 'zod';

/**
 * What receipt verification takes. Only the shape is checked here: the p2p service owns what a txid
 * and an order line must be (decision 0008) and refuses the rest with the field named.
 */

export const receiptParams = z.object({ txid: z.string() });

const orderLine = z
  .object({
    item_id: z.string().nullable(),
    name: z.string(),
    quantity: z.number().int(),
    unit_price_minor: z.number().int(),
    currency: z.string(),
  })
  .strict();

export const orderLinesBody = z.object({ lines: z.array(orderLine) }).strict();
export type OrderLinesBody = z.infer<typeof orderLinesBody>;

export const orderLinesExample: z.input<typeof orderLinesBody> = {
  lines: [{ item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31', name: 'Oat milk latte', quantity: 1, unit_price_minor: 575, currency: 'USD' }],
};
