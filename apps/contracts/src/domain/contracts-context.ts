import type { ChainClient } from '@ctk/chain';
import type { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import type { GrpcClient, Logger } from '@ctk/shared';
import type { EscrowRepository } from '../data/escrow-repository.js';
import type { JointRepository } from '../data/joint-repository.js';
import type { RedemptionRepository } from '../data/redemption-repository.js';
import type { TimelockedRefundRepository } from '../data/timelocked-refund-repository.js';
import type { ReferralRepository } from '../data/referral-repository.js';
import type { TokenRepository } from '../data/token-repository.js';

/** What the contracts service's use cases are given: tokens (decision 0036), joint transactions (decision 0037), escrows (decision 0038), time-locked refunds (decision 0039) and referral links (decision 0040). */
export type ContractsContext = {
  tokens: TokenRepository;
  redemptions: RedemptionRepository;
  joints: JointRepository;
  escrows: EscrowRepository;
  refunds: TimelockedRefundRepository;
  referrals: ReferralRepository;
  /** The merchant's wallet: its registered keys, its coins, and the addresses it holds for a mint. */
  p2p: GrpcClient<typeof P2pServiceDefinition>;
  /** The shop's items and orders: credits are sold in one and redeemed against another (decision 0036), an item through a referral link (decision 0040). */
  pos: GrpcClient<typeof PosServiceDefinition>;
  /** Deployed mints and token holdings, read on the chain and its token indexer. */
  chain: ChainClient;
  /** The mining fee a drafted mint and a joint transaction pay at least, in satoshis per 1000 bytes. */
  feeSatsPerKb: number;
  logger: Logger;
  now: () => Date;
  /** Wakes the outbox relay once a transaction that wrote payment events has committed. */
  eventsCommitted(): void;
};
