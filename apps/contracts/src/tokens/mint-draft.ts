import { z } from 'zod';

/**
 * What a draft keeps of the transaction it built (the `draft` column): the unsigned transaction in Extended
 * Format hex, what each input spends with the path of the key that signs it, and the fee and change. Read back
 * through this schema, so a row written by an older version of the service is refused rather than misread.
 */
export const mintDraftSchema = z.object({
  transaction: z.string(),
  inputs: z.array(
    z.object({ txid: z.string(), vout: z.number().int(), satoshis: z.number().int(), address: z.string(), derivationPath: z.string() }),
  ),
  mintVout: z.number().int(),
  feeSatoshis: z.number().int(),
  changeSatoshis: z.number().int(),
  changeAddress: z.string(),
});

export type MintDraft = z.infer<typeof mintDraftSchema>;
