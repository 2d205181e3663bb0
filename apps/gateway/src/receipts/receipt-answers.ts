import { z } from 'zod';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { named } from '../routes/answer-schema.js';

/**
 * Receipt verification as p2p's contract gives it (decision 0026), with the lines check the API answers
 * as one object: p2p's verdict on the lines, and the lines it checked (the ones the caller sent).
 */

export const VERIFY_RECEIPT = messageDesc('ctk.p2p.v1.VerifyReceiptRequest');
export const RECEIPT = messageDesc('ctk.p2p.v1.VerifyReceiptResponse');

/** POST's body: the order lines the caller holds (the txid is the path's). */
export const orderLinesBody = messageSchema(VERIFY_RECEIPT, 'request', ['txid']) as z.ZodObject<{ lines: z.ZodArray }>;
const requestExample = exampleOf(VERIFY_RECEIPT) as { lines: unknown[] };

export const receiptVerification = named(
  'ReceiptVerification',
  (messageSchema(RECEIPT, 'answer') as z.ZodObject).extend({
    lines: z.object({
      status: z.enum(['unknown', 'match', 'mismatch']).describe('unknown when no order lines were given'),
      items: orderLinesBody.shape.lines.nullable(),
    }),
  }),
  { ...(exampleOf(RECEIPT) as object), lines: { status: 'match', items: requestExample.lines } },
);
