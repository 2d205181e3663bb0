import {
  chainClientOptions,
  chainConfigSchema,
  chainEndpoints,
  createChainClient,
  type ChainClient,
  type ChainConfig,
  type ChainNetwork,
} from '@ctk/chain';
import { validate } from '@ctk/shared';

export type ChainSettings = { config: ChainConfig; network: ChainNetwork; client: ChainClient; arcUrl: string };

/** The chain from CHAIN_* (CHAIN_NETWORK defaults to local, CHAIN_LOCAL_URL to http://127.0.0.1:50070), as every service reads it. */
export function chainSettings(env: Record<string, string | undefined>): ChainSettings {
  const config = validate(chainConfigSchema, pickChainEnv(env), 'environment');
  const options = chainClientOptions(config);
  return { config, network: config.CHAIN_NETWORK, client: createChainClient(options), arcUrl: chainEndpoints(options).arc };
}

function pickChainEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('CHAIN_') && entry[1] !== undefined),
  );
}

/** Addresses in the network's form: mainnet for main, testnet for test and local (as the local chain shows them). */
export function addressPrefix(network: ChainNetwork): 'mainnet' | 'testnet' {
  return network === 'main' ? 'mainnet' : 'testnet';
}
