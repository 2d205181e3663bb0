import { chainConfigFields } from '@ctk/chain';
import { databaseConfigFields, eventConfigFields, serviceAddressFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('contracts'),
  ...databaseConfigFields,
  // Its outbox's events go to NATS (and commerce consumes them there) on the distributed path.
  ...eventConfigFields,
  // A token's mint goes to an address of the merchant's wallet that p2p holds, paid for by the wallet's
  // coins that p2p lists (docs/decisions/0036-stablecoin-and-tokens.md); credits are sold and redeemed in pos's orders.
  ...serviceAddressFields(['p2p', 'pos']),
  // Deployed tokens, their holders and transfers are read on the chain and its token indexer.
  ...chainConfigFields,
  /** The mining fee a drafted mint pays, in satoshis per 1000 bytes (the wallet's default; miners take less today). */
  CONTRACTS_FEE_SATS_PER_KB: z.coerce.number().int().min(1).max(100_000).default(100),
  /**
   * How often the watcher moves on the time-locked refunds not settled, broadcasting those past their date
   * (docs/decisions/0039-time-locked-refunds.md); 0 turns it off (reading a refund moves it on too).
   */
  CONTRACTS_WATCH_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
});

export type Config = z.infer<typeof configSchema>;
