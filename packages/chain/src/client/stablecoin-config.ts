import { AppError } from '@ctk/shared';
import type { ChainNetwork, StablecoinInfo } from './types.js';

/** MNEE, the dollar stablecoin on BSV mainnet: its BSV-21 token id and decimals (100,000 units a dollar). */
export const MNEE_TOKEN_ID = 'ae59f3b898ec61acbdb6cc7a245fabeded0c094bf046f35206a3aec60ef88127_0';
export const MNEE_DECIMALS = 5;

/** What configuration says of the stablecoin (each part optional: main has MNEE's id, symbol and decimals as defaults). */
export type StablecoinOptions = Partial<StablecoinInfo>;

/**
 * The stablecoin of `main` or `test` from configuration, main defaulting to MNEE's id, symbol and decimals.
 * MNEE publishes its cosigner's key through its own service only, so no network has a default for it.
 */
export function configuredStablecoin(network: Exclude<ChainNetwork, 'local'>, options: StablecoinOptions = {}): StablecoinInfo {
  const defaults: StablecoinOptions = network === 'main' ? { tokenId: MNEE_TOKEN_ID, symbol: 'MNEE', decimals: MNEE_DECIMALS } : {};
  const merged = { ...defaults, ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) };
  const missing = [
    merged.tokenId === undefined && 'CHAIN_STABLECOIN_TOKEN_ID',
    merged.decimals === undefined && 'CHAIN_STABLECOIN_DECIMALS',
    merged.cosignerPublicKey === undefined && 'CHAIN_STABLECOIN_COSIGNER_KEY',
  ].filter((name): name is string => Boolean(name));
  if (missing.length > 0)
    throw new AppError(
      'failed_precondition',
      `No stablecoin is configured for the ${network} network: set ${missing.join(', ')} (the token id, its decimals and its cosigner's public key${network === 'main' ? "; MNEE's id and decimals are main's defaults, its cosigner's key is not" : ''}).`,
      { missing },
    );
  return {
    tokenId: merged.tokenId!,
    symbol: merged.symbol ?? merged.tokenId!.slice(0, 8),
    decimals: merged.decimals!,
    cosignerPublicKey: merged.cosignerPublicKey!,
  };
}
