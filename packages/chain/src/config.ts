import { unsetIfEmpty } from '@ctk/shared';
import { z } from 'zod';
import { DEFAULT_LOCAL_CHAIN_URL, type ChainClientOptions } from './client/create-chain-client.js';
import { isTokenId } from './tokens/token-types.js';

const httpUrl = () => unsetIfEmpty(z.url({ protocol: /^https?$/ }).optional());

/**
 * The chain client's variables, to spread into an app's config schema:
 * `z.object({ ...chainConfigFields, ... })`, then `createChainClient(chainClientOptions(config))`.
 */
export const chainConfigFields = {
  /** `local` (the embedded default) talks to the local chain; `main` and `test` to ARC and WhatsOnChain. */
  CHAIN_NETWORK: z.enum(['main', 'test', 'local']).default('local'),
  CHAIN_LOCAL_URL: unsetIfEmpty(z.url({ protocol: /^https?$/ }).default(DEFAULT_LOCAL_CHAIN_URL)),
  /** Override the network's ARC base URL. */
  CHAIN_ARC_URL: httpUrl(),
  /** Override the network's WhatsOnChain-compatible base URL (network included, e.g. …/v1/bsv/main). */
  CHAIN_WOC_URL: httpUrl(),
  CHAIN_ARC_API_KEY: unsetIfEmpty(z.string().min(1).optional()),
  CHAIN_WOC_API_KEY: unsetIfEmpty(z.string().min(1).optional()),
  CHAIN_TIMEOUT_MS: unsetIfEmpty(z.coerce.number().int().min(100).max(120_000).default(10_000)),
  CHAIN_RETRIES: unsetIfEmpty(z.coerce.number().int().min(0).max(10).default(3)),
  /** 1Sat's token indexer (…/api/bsv20): GorillaPool's for main and test, the local chain for local. */
  CHAIN_TOKEN_INDEXER_URL: httpUrl(),
  /** The stablecoin of main and test: its BSV-21 id (main: MNEE's), decimals (main: 5), cosigner's key and symbol (main: MNEE). */
  CHAIN_STABLECOIN_TOKEN_ID: unsetIfEmpty(z.string().refine(isTokenId, 'expected a token id: <64 lowercase hex>_<vout>').optional()),
  CHAIN_STABLECOIN_DECIMALS: unsetIfEmpty(z.coerce.number().int().min(0).max(18).optional()),
  CHAIN_STABLECOIN_COSIGNER_KEY: unsetIfEmpty(
    z
      .string()
      .regex(/^0[23][0-9a-fA-F]{64}$/, 'expected a compressed public key: 66 hex digits starting with 02 or 03')
      .transform((key) => key.toLowerCase())
      .optional(),
  ),
  CHAIN_STABLECOIN_SYMBOL: unsetIfEmpty(z.string().min(1).max(32).optional()),
};

export const chainConfigSchema = z.object(chainConfigFields);
export type ChainConfig = z.infer<typeof chainConfigSchema>;

export function chainClientOptions(config: ChainConfig): ChainClientOptions {
  return {
    network: config.CHAIN_NETWORK,
    localUrl: config.CHAIN_LOCAL_URL,
    arcUrl: config.CHAIN_ARC_URL,
    wocUrl: config.CHAIN_WOC_URL,
    arcApiKey: config.CHAIN_ARC_API_KEY,
    wocApiKey: config.CHAIN_WOC_API_KEY,
    timeoutMs: config.CHAIN_TIMEOUT_MS,
    retries: config.CHAIN_RETRIES,
    tokenIndexerUrl: config.CHAIN_TOKEN_INDEXER_URL,
    stablecoin: {
      tokenId: config.CHAIN_STABLECOIN_TOKEN_ID,
      decimals: config.CHAIN_STABLECOIN_DECIMALS,
      cosignerPublicKey: config.CHAIN_STABLECOIN_COSIGNER_KEY,
      symbol: config.CHAIN_STABLECOIN_SYMBOL,
    },
  };
}
