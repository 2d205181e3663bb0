import { z } from 'zod';

/** Only the shape of a wallet pass request (decision 0017, "Wallet passes"): which card, by its id. */
export const walletPassParams = z.object({
  card_id: z.uuid('must be a loyalty card id (a UUID)').describe('The loyalty card id'),
});
