import { z } from 'zod';

/** BIP270's Payment, in its own field names. */
export const bip270Payment = z
  .object({
    transaction: z.string().min(1).max(20_000_000).describe('The payment transaction, hex (raw, EF or BEEF)'),
    merchantData: z.string().max(10_000).optional(),
    memo: z.string().max(1_000).optional(),
    refundTo: z.string().max(1_000).optional(),
  })
  .strict();

export const bip270PaymentExample = {
  transaction: '0100000001' + 'ab'.repeat(32) + '000000006a47304402' + '00'.repeat(8) + 'ffffffff0200000000000000',
  merchantData: '{"order_number":"7Q2M9K4X1C"}',
  memo: 'Paid with HandCash',
};
