import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { chainClientOptions, chainConfigSchema } from './config.js';
import { chainEndpoints } from './client/create-chain-client.js';
import { localChainConfigSchema, localChainOptions } from './local/config.js';

describe('chain config', () => {
  it('defaults to the local chain', () => {
    const config = loadConfig(chainConfigSchema, {});
    expect(config).toMatchObject({
      CHAIN_NETWORK: 'local',
      CHAIN_LOCAL_URL: 'http://127.0.0.1:50070',
      CHAIN_TIMEOUT_MS: 10_000,
      CHAIN_RETRIES: 3,
    });
    expect(chainEndpoints(chainClientOptions(config))).toEqual({
      arc: 'http://127.0.0.1:50070',
      woc: 'http://127.0.0.1:50070/v1/bsv/local',
      tokenIndexer: 'http://127.0.0.1:50070',
      local: 'http://127.0.0.1:50070',
    });
  });

  it('points main and test at the public services unless told otherwise', () => {
    expect(chainEndpoints({ network: 'main' })).toMatchObject({
      arc: 'https://arc.taal.com',
      woc: 'https://api.whatsonchain.com/v1/bsv/main',
      tokenIndexer: 'https://ordinals.gorillapool.io',
    });
    expect(chainEndpoints({ network: 'test' })).toMatchObject({
      arc: 'https://arc-test.taal.com',
      woc: 'https://api.whatsonchain.com/v1/bsv/test',
      tokenIndexer: 'https://testnet.ordinals.gorillapool.io',
    });
    const config = loadConfig(chainConfigSchema, {
      CHAIN_NETWORK: 'main',
      CHAIN_ARC_URL: 'https://arc.example/',
      CHAIN_WOC_URL: '',
      CHAIN_ARC_API_KEY: 'k',
    });
    expect(chainEndpoints(chainClientOptions(config))).toMatchObject({
      arc: 'https://arc.example',
      woc: 'https://api.whatsonchain.com/v1/bsv/main',
    });
    expect(chainClientOptions(config).arcApiKey).toBe('k');
  });

  it('takes the stablecoin and the token indexer from configuration', () => {
    const key = `02${'AB'.repeat(32)}`;
    const config = loadConfig(chainConfigSchema, {
      CHAIN_NETWORK: 'test',
      CHAIN_TOKEN_INDEXER_URL: 'https://indexer.example/',
      CHAIN_STABLECOIN_TOKEN_ID: `${'cd'.repeat(32)}_0`,
      CHAIN_STABLECOIN_DECIMALS: '5',
      CHAIN_STABLECOIN_COSIGNER_KEY: key,
    });
    expect(chainEndpoints(chainClientOptions(config)).tokenIndexer).toBe('https://indexer.example');
    expect(chainClientOptions(config).stablecoin).toEqual({
      tokenId: `${'cd'.repeat(32)}_0`,
      decimals: 5,
      cosignerPublicKey: key.toLowerCase(),
      symbol: undefined,
    });
    expect(() => loadConfig(chainConfigSchema, { CHAIN_STABLECOIN_TOKEN_ID: 'USDX' })).toThrow(/CHAIN_STABLECOIN_TOKEN_ID/);
    expect(() => loadConfig(chainConfigSchema, { CHAIN_STABLECOIN_COSIGNER_KEY: `04${'ab'.repeat(32)}` })).toThrow(
      /CHAIN_STABLECOIN_COSIGNER_KEY/,
    );
    expect(() => loadConfig(chainConfigSchema, { CHAIN_STABLECOIN_DECIMALS: '19' })).toThrow(/CHAIN_STABLECOIN_DECIMALS/);
  });

  it('names what is wrong', () => {
    expect(() => loadConfig(chainConfigSchema, { CHAIN_NETWORK: 'regtest', CHAIN_ARC_URL: 'ftp://x' })).toThrow(
      /CHAIN_NETWORK[\s\S]*CHAIN_ARC_URL/,
    );
  });

  it('gives the local chain server its defaults', () => {
    expect(loadConfig(localChainConfigSchema, { CHAIN_MIN_FEE_SATS_PER_KB: '0' })).toMatchObject({
      CHAIN_PORT: 50070,
      CTK_DATA_DIR: '.data',
      CHAIN_STORE: 'data-dir',
      CHAIN_MIN_FEE_SATS_PER_KB: 0,
      CHAIN_FAUCET_MAX_SATOSHIS: 1_000_000_000,
      CHAIN_MINE_INTERVAL_MS: 10_000,
      CHAIN_SCRIPT_CHECKS: 'fast',
      CHAIN_STABLECOIN_FAUCET_MAX_UNITS: 1_000_000_000n,
    });
    expect(localChainOptions(loadConfig(localChainConfigSchema, { CHAIN_SCRIPT_CHECKS: 'sdk' })).scriptChecks).toBe('sdk');
    expect(
      localChainOptions(loadConfig(localChainConfigSchema, { CHAIN_STABLECOIN_FAUCET_MAX_UNITS: '500' })).stablecoinFaucetMaxUnits,
    ).toBe(500n);
    expect(() => loadConfig(localChainConfigSchema, { CHAIN_STABLECOIN_FAUCET_MAX_UNITS: '0' })).toThrow(
      /CHAIN_STABLECOIN_FAUCET_MAX_UNITS/,
    );
    expect(() => loadConfig(localChainConfigSchema, { CHAIN_SCRIPT_CHECKS: 'native' })).toThrow(/CHAIN_SCRIPT_CHECKS/);
  });
});
