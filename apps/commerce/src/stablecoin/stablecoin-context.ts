import type { ChainClient } from '@ctk/chain';
import type { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { GrpcClient, Logger, OneAtATime } from '@ctk/shared';
import type { CheckoutRepository } from '../data/checkout-repository.js';
import type { StablecoinRepository } from '../data/stablecoin-repository.js';
import type { PosClient } from '../pos-client.js';

/** What the stablecoin intents' use cases are given (docs/decisions/0036-stablecoin-and-tokens.md). */
export type StablecoinContext = {
  intents: StablecoinRepository;
  checkouts: Pick<CheckoutRepository, 'byToken'>;
  /** The orders intents pay, and pos's record of them paid in the stablecoin. */
  pos: PosClient;
  /** The merchant's receiving addresses (one per intent, decision 0022). */
  p2p: GrpcClient<typeof P2pServiceDefinition>;
  /** The stablecoin's facts, token transfers, broadcast. */
  chain: ChainClient;
  /** How long after an intent's expiry its address stays held (a late transfer then is refused, not mistaken). */
  lateHoldMs: number;
  /**
   * Settles of one transfer to one intent, one after another in this process: the first verifies and records
   * it, the same transfer sent again meanwhile then finds it recorded and is answered at once, not queued on the
   * order's row in pos; another transfer waits on none of them. pos's lock and the intents' table decide across
   * processes.
   */
  settles: OneAtATime;
  eventsCommitted: () => void;
  logger: Logger;
  now: () => Date;
};
