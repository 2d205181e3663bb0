import type { ChainClient } from '@ctk/chain';
import type { Config } from '../config.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { SigningKey } from './credential.js';

/** What the payment gate's use cases need. */
export type GateDeps = {
  prisma: PrismaClient;
  chain: ChainClient;
  config: Config;
  /** x402's name of the chain in use: bsv:mainnet, bsv:testnet or bsv:local. */
  network: string;
  signingKey: () => Promise<SigningKey>;
  /** Called after a commit that wrote payment events to the outbox, so the relay publishes them now. */
  eventsCommitted: () => void;
};
