import { z } from 'zod';

/** An order number as a shop's staff give it (a pos order number, "A-1042"): letters, digits and dashes. */
export const orderNumberSchema = z.string().regex(/^[A-Za-z0-9-]{1,40}$/, 'order_number must be an order number such as "A-1042"');
